/**
 * OAuth2's `device_code` grant (RFC 8628): a device authorization request
 * (§3.1) gives a device code and a user code; a person is told, in one line,
 * where to enter the user code; the token endpoint is then polled with the
 * device code every `interval` seconds (§3.4, §3.5) until it gives a token,
 * says the person denied it or the code expired, or the wait runs out: the
 * code's `expires_in`, at most {@linkcode MAX_DEVICE_WAIT_S}, or the run's
 * interrupt. It runs unattended where a test IdP approves the device by
 * itself. Each request is one exchange of its own in the reports, a poll the
 * endpoint answered "ask again" marked with that word (`pending`).
 *
 * Real providers differ from the RFC in small ways, taken as they come:
 * Google's `verification_url`, numbers written as strings, no `interval`
 * (5 s), GitHub's "ask again" answered with 200, a `slow_down` that names
 * the new interval.
 *
 * @module
 */
import { DEVICE_CODE_GRANT } from "../model/auth.ts";
import { plural } from "../_util/plural.ts";
import type { AuthServices } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import type { ResolvedRequest } from "./request.ts";
import { reasonOf } from "./request_error.ts";
import type { ReceivedResponse } from "./response.ts";
import type { Token } from "./token_cache.ts";
import {
  bodyOf,
  type Endpoint,
  formRequest,
  type OAuth2Params,
  postForm,
  refused,
  registerTokens,
  tokenOf,
} from "./oauth2_form.ts";
import { errorTold, failedTold } from "./oauth2_told.ts";
import { around, joined, ownWords, tell, type Told, told } from "../model/told.ts";
import { clipped } from "../_util/clip.ts";

/**
 * The longest flowrun waits for a device to be approved, whatever its
 * `expires_in` says: a run waiting for a person is bounded.
 *
 * @example
 * ```ts
 * import { MAX_DEVICE_WAIT_S } from "./oauth2_device.ts";
 * if (MAX_DEVICE_WAIT_S !== 600) throw new Error();
 * ```
 */
export const MAX_DEVICE_WAIT_S = 600;

/**
 * The interval between polls when the answer names none (RFC 8628 §3.2), in
 * seconds; and the shortest flowrun polls at, whatever the answer says.
 *
 * @example
 * ```ts
 * import { DEVICE_INTERVAL_S } from "./oauth2_device.ts";
 * if (DEVICE_INTERVAL_S.default !== 5 || DEVICE_INTERVAL_S.min !== 1) throw new Error();
 * ```
 */
export const DEVICE_INTERVAL_S = { default: 5, min: 1, slowDown: 5 } as const;

/** What the device authorization endpoint gave (§3.2), its texts made safe to print. */
interface Device {
  deviceCode: string;
  userCode?: string;
  verificationUri?: string;
  verificationUriComplete?: string;
  /** The device code's lifetime, when the answer said it. */
  expiresInS?: number;
  intervalS: number;
}

/** A poll's answer: a token, or the word that means "ask again". */
interface Poll {
  token?: Token;
  pending?: string;
  /** The interval a `slow_down` answer named, if it named one. */
  intervalS?: number;
}

/** Where polling stands, for its messages. */
interface Polling {
  device: Device;
  started: number;
  polls: number;
  /** How long flowrun waits, and why that long. */
  waitS: number;
}

/**
 * The token of the `device_code` grant: the device authorization request,
 * one line for a person (`services.notice`, else standard error), then polls.
 *
 * @example
 * ```ts
 * import { deviceToken } from "./oauth2_device.ts";
 * let polls = 0;
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) =>
 *   new URL(req.url).pathname === "/device"
 *     ? Response.json({ device_code: "dc-1", user_code: "AB-CD", verification_uri: "https://idp.test/d", interval: 1 })
 *     : ++polls < 2
 *     ? Response.json({ error: "authorization_pending" }, { status: 400 })
 *     : Response.json({ access_token: "t-1", expires_in: 60 }));
 * const base = `http://127.0.0.1:${server.addr.port}`;
 * const lines: string[] = [];
 * const params = { url: `${base}/token`, deviceUrl: `${base}/device`, grant: "device_code", clientId: "app", clientAuth: "body" as const, fields: [] };
 * const token = await deviceToken(params, { secret: () => {}, env: () => undefined, timeoutMs: 5000, notice: (l) => void lines.push(l) });
 * await server.shutdown();
 * if (token.accessToken !== "t-1" || polls !== 2 || !lines[0].includes("AB-CD")) throw new Error();
 * ```
 */
export async function deviceToken(params: OAuth2Params, services: AuthServices): Promise<Token> {
  if (params.deviceUrl === undefined) {
    throw new AuthError(ownWords("The OAuth2 device_code grant needs a device_authorization_url."));
  }
  const endpoint: Endpoint = {
    url: params.deviceUrl,
    grant: "device_code",
    name: "device authorization",
    key: "device_authorization_url",
  };
  const device = await postForm(
    deviceRequest(params.deviceUrl, params),
    endpoint,
    services,
    (response) => deviceOf(response, endpoint, services),
  );
  const waitS = Math.min(device.expiresInS ?? MAX_DEVICE_WAIT_S, MAX_DEVICE_WAIT_S);
  const notice = services.notice ?? ((line: string) => console.error(line));
  const line = noticeLine(device, params.url, waitS);
  notice(tell(line), line);
  return await poll(params, { device, started: performance.now(), polls: 0, waitS }, services);
}

/** §3.1: the client's credentials, `scope`, `audience` and the extra parameters. */
function deviceRequest(url: string, params: OAuth2Params): ResolvedRequest {
  const form = new URLSearchParams();
  for (const [name, value] of params.fields) {
    // Other grants' own parameters, written in the block by mistake, are not sent.
    if (!["username", "password", "refresh_token"].includes(name)) form.append(name, value);
  }
  return formRequest(url, form, params);
}

/** §3.2: the device authorization answer, or why it is not one. */
function deviceOf(response: ReceivedResponse, endpoint: Endpoint, services: AuthServices): Device {
  const body = bodyOf(response);
  // The device code is what a token is got with: a secret, registered before any report.
  if (typeof body?.device_code === "string") services.secret(body.device_code);
  if (response.status < 200 || response.status > 299) throw refused(response, body, endpoint);
  const failed = failedTold(endpoint, response.status);
  if (!body) {
    const type = response.contentType ?? "no content type";
    throw new AuthError(joined(failed, told` with a body that is not a JSON object (${type}).`));
  }
  if (typeof body.device_code !== "string" || body.device_code === "") {
    throw new AuthError(
      joined(failed, ownWords(" without a device_code"), errorTold(body), ownWords(".")),
    );
  }
  const interval = seconds(body.interval);
  return {
    deviceCode: body.device_code,
    userCode: printable(body.user_code),
    // Google's device flow names it verification_url.
    verificationUri: printable(body.verification_uri) ?? printable(body.verification_url),
    verificationUriComplete: printable(body.verification_uri_complete),
    expiresInS: positive(seconds(body.expires_in)),
    intervalS: Math.max(DEVICE_INTERVAL_S.min, interval ?? DEVICE_INTERVAL_S.default),
  };
}

/** A number of seconds, written as a number or a string (as some providers do). */
function seconds(value: unknown): number | undefined {
  const n = typeof value === "number"
    ? value
    : typeof value === "string" && value.trim() !== ""
    ? Number(value)
    : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** A lifetime: more than none. */
function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}

/** A text the server gave, to print for a person: no control characters, not too long. */
function printable(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  // deno-lint-ignore no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return text === "" ? undefined : clipped(text, 300);
}

/** The one line a person reads: where to go, the code to enter, how long flowrun waits. */
function noticeLine(device: Device, tokenUrl: string, waitS: number): Told {
  // The provider's URLs, the user code and the token URL are values; the rest is flowrun's.
  const where = device.verificationUri !== undefined
    ? told`${device.verificationUri}`
    : ownWords("the provider's device verification page");
  const code = device.userCode ? told` and enter the code ${device.userCode}` : ownWords("");
  const complete = device.verificationUriComplete
    ? told` (or open ${device.verificationUriComplete})`
    : ownWords("");
  return joined(
    around("OAuth2 device authorization: to approve, open ", where, ""),
    code,
    complete,
    told`; flowrun polls ${tokenUrl} `,
    ownWords(`every ${device.intervalS} s for up to ${Math.round(waitS)} s.`),
  );
}

/** §3.4–3.5: the token endpoint polled every interval until a token or an answer that ends it. */
async function poll(params: OAuth2Params, at: Polling, services: AuthServices): Promise<Token> {
  const endpoint: Endpoint = {
    url: params.url,
    grant: DEVICE_CODE_GRANT,
    name: "token",
    key: "token_url",
  };
  let intervalS = at.device.intervalS;
  const elapsedS = () => (performance.now() - at.started) / 1000;
  // Bounded twice: by the wait (a poll that would start after it is not sent) and by a count.
  const maxPolls = Math.ceil(MAX_DEVICE_WAIT_S / DEVICE_INTERVAL_S.min);
  while (at.polls < maxPolls && elapsedS() + intervalS <= at.waitS) {
    if (!await wait(intervalS * 1000, services.signal)) {
      const polls = plural(at.polls, "poll");
      throw new AuthError(joined(
        told`The OAuth2 device authorization was interrupted (${reasonOf(services.signal!)}) `,
        around(`while it waited for approval, after ${polls} of `, told`${params.url}`, "."),
      ));
    }
    at.polls++;
    const answer = await postForm(
      pollRequest(params, at.device),
      endpoint,
      services,
      (response) => pollOf(response, endpoint, at, services),
      (p) => p.pending,
    );
    if (answer.token) return answer.token;
    if (answer.pending === "slow_down") {
      // §3.5: five seconds more for this and every later poll; more if the answer asks for it.
      intervalS = Math.max(intervalS + DEVICE_INTERVAL_S.slowDown, answer.intervalS ?? 0);
    }
  }
  throw new AuthError(notApproved(params.url, at));
}

/** §3.4: the device access token request. */
function pollRequest(params: OAuth2Params, device: Device): ResolvedRequest {
  const form = new URLSearchParams([
    ["grant_type", DEVICE_CODE_GRANT],
    ["device_code", device.deviceCode],
  ]);
  return formRequest(params.url, form, params);
}

/** §3.5: a poll's answer. "Ask again" may come with 400 (the RFC) or 200 (GitHub). */
function pollOf(
  response: ReceivedResponse,
  endpoint: Endpoint,
  at: Polling,
  services: AuthServices,
): Poll {
  const body = bodyOf(response);
  registerTokens(body, services);
  const error = typeof body?.error === "string" && typeof body.access_token !== "string" &&
      response.status < 500
    ? body.error
    : undefined;
  if (error === "authorization_pending") return { pending: error };
  if (error === "slow_down") return { pending: error, intervalS: seconds(body!.interval) };
  if (error === "access_denied" || error === "expired_token") {
    // The URL, the status and the server's words are values; counts and the rest are flowrun's.
    const overS = Math.round((performance.now() - at.started) / 1000);
    const answered = joined(
      told`the token request to ${endpoint.url} answered ${response.status}`,
      errorTold(body),
      ownWords(` after ${plural(at.polls, "poll")} over ${overS} s`),
    );
    throw new AuthError(
      error === "access_denied"
        ? around(
          "The OAuth2 device authorization was denied: ",
          answered,
          ": the person asked to approve the device refused it.",
        )
        : around(
          "The OAuth2 device code expired before it was approved: ",
          answered,
          ". Approve the device sooner, or ask the provider for a longer-lived code.",
        ),
    );
  }
  return { token: tokenOf(response, endpoint, undefined, services) };
}

/**
 * Why flowrun stopped polling by itself: the wait ran out with no answer that ends it. The token
 * URL, the verification URI and the user code are values; counts and limits are flowrun's words.
 */
function notApproved(tokenUrl: string, at: Polling): Told {
  const { device } = at;
  const limit = device.expiresInS !== undefined && device.expiresInS <= MAX_DEVICE_WAIT_S
    ? `the device code's expires_in of ${device.expiresInS} s`
    : `flowrun's limit of ${MAX_DEVICE_WAIT_S} s`;
  const where = device.verificationUri ? told` at ${device.verificationUri}` : ownWords("");
  const code = device.userCode ? told` (code ${device.userCode})` : ownWords("");
  const overS = Math.round((performance.now() - at.started) / 1000);
  return joined(
    told`The OAuth2 device code was not approved in time: flowrun polled ${tokenUrl} `,
    ownWords(
      `${plural(at.polls, "time")} over ${overS} s, until ${limit} ran out, and it never gave ` +
        "a token. Approve the device",
    ),
    where,
    code,
    ownWords(" within that time."),
  );
}

/** Waits `ms`; false when the run is interrupted first (at once if it already is). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve(!signal?.aborted);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
