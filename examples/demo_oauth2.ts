/**
 * The demo API's OAuth2 authorization server and the routes behind the
 * simple auth kinds, as a real server checks them:
 *
 * - `POST /oauth2/token` (RFC 6749): the `client_credentials`, `password`
 *   and `refresh_token` grants, for client {@linkcode OAUTH2_CLIENT_ID}
 *   (secret {@linkcode OAUTH2_CLIENT_SECRET}) authenticated with HTTP Basic
 *   (each part form-decoded after base64, §2.3.1) or in the body; user
 *   {@linkcode OAUTH2_USER} / {@linkcode OAUTH2_PASSWORD} for the password
 *   grant. Tokens expire after {@linkcode OAUTH2_EXPIRES_IN} seconds (a
 *   form parameter `expires_in` asks for fewer, at least 1) and come with a
 *   refresh token. Errors are §5.2's: `invalid_client` (401), `invalid_grant`,
 *   `unsupported_grant_type`, `invalid_request` (400).
 * - `POST /oauth2/device_authorization` (RFC 8628 §3.1) and the token
 *   endpoint's `urn:ietf:params:oauth:grant-type:device_code` grant: a device
 *   nobody has to approve. The device is approved by itself on the poll after
 *   {@linkcode DEVICE_APPROVE_AFTER} polls answered `authorization_pending`; a
 *   poll sooner than the interval after the last is answered `slow_down` (and
 *   the interval grows by 5 s, as §3.5 says); an expired code
 *   `expired_token`. Demo-only form parameters of the device authorization
 *   request, for tests that cannot wait: `interval` (1 to 5 s, default
 *   {@linkcode DEVICE_INTERVAL}), `approve_after` (0 to 10 polls), `deny`
 *   (`true`: the person refuses, `access_denied`), `device_expires_in`
 *   (1 to 600 s, default {@linkcode DEVICE_EXPIRES_IN}) and `expires_in` (the
 *   token's lifetime, as for the token endpoint). `GET /oauth2/device` is
 *   the verification page a person would open.
 * - `GET /oauth2/me`: 200 with the token's client, user and scope for a live
 *   token, else 401 with `WWW-Authenticate: Bearer error="invalid_token"`.
 * - `GET /basic/me`: HTTP Basic (RFC 7617) for {@linkcode OAUTH2_USER}.
 * - `GET /api-key/me`: the key {@linkcode DEMO_API_KEY} in an `x-api-key`
 *   header, an `api_key` query parameter or an `api_key` cookie.
 *
 * @module
 */

/** The demo OAuth2 client's id. */
export const OAUTH2_CLIENT_ID = "demo-client";
/** Its secret: characters RFC 6749 §2.3.1's form-encoding changes. */
export const OAUTH2_CLIENT_SECRET = "demo secret+/=:";
/** The password grant's user, also the Basic route's. */
export const OAUTH2_USER = "demo";
/** Their password. */
export const OAUTH2_PASSWORD = "demo-password";
/** How long a token lives, in seconds. */
export const OAUTH2_EXPIRES_IN = 60;
/** The API key of `/api-key/me`. */
export const DEMO_API_KEY = "demo-api-key";
/** RFC 8628's grant type of the device code's token requests. */
export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** Seconds between a device code's polls, unless the request asks for fewer. */
export const DEVICE_INTERVAL = 5;
/** Polls answered `authorization_pending` before the device is approved. */
export const DEVICE_APPROVE_AFTER = 1;
/** How long a device code lives, in seconds. */
export const DEVICE_EXPIRES_IN = 300;

interface Grant {
  client: string;
  user?: string;
  scope: string;
  expires: number;
  /** The token lifetime the grant asked for (`expires_in`), if it asked. */
  expiresIn?: string | null;
}

/** A device waiting for approval, by its device code. */
interface Device {
  client: string;
  scope: string;
  userCode: string;
  expires: number;
  intervalMs: number;
  /** When it was last polled (first: when the code was given). */
  lastPoll: number;
  polls: number;
  approveAfter: number;
  deny: boolean;
  expiresIn: string | null;
}

const devices = new Map<string, Device>();

const tokens = new Map<string, Grant>();
const refreshTokens = new Map<string, Omit<Grant, "expires">>();

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

const oauthError = (error: string, description: string, status = 400) =>
  json(
    { error, error_description: description },
    status,
    status === 401 ? { "www-authenticate": 'Basic realm="demo-oauth2"' } : {},
  );

/** `application/x-www-form-urlencoded` decoding of one part (`+` is a space). */
const formDecode = (s: string) => new URLSearchParams(`x=${s}`).get("x") ?? "";

/** The client's id and secret: from HTTP Basic (form-decoded parts) or the body. */
function clientOf(request: Request, form: URLSearchParams): [string, string] | undefined {
  const header = request.headers.get("authorization");
  if (header?.toLowerCase().startsWith("basic ")) {
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob(header.slice(6).trim()), (c) => c.charCodeAt(0)),
    );
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    return [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
  }
  const id = form.get("client_id");
  return id === null ? undefined : [id, form.get("client_secret") ?? ""];
}

/** The grant a token request asks for, or the error response. */
function grantOf(form: URLSearchParams, client: string): Omit<Grant, "expires"> | Response {
  const scope = form.get("scope") ?? "";
  switch (form.get("grant_type")) {
    case "client_credentials":
      return { client, scope };
    case "password":
      if (form.get("username") !== OAUTH2_USER || form.get("password") !== OAUTH2_PASSWORD) {
        return oauthError("invalid_grant", "The user name or password is wrong.");
      }
      return { client, user: OAUTH2_USER, scope };
    case "refresh_token": {
      const held = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!held || held.client !== client) {
        return oauthError("invalid_grant", "The refresh token is unknown.");
      }
      return held;
    }
    case DEVICE_GRANT:
      return deviceGrant(form.get("device_code") ?? "", client);
    case null:
      return oauthError("invalid_request", "grant_type is missing.");
    default:
      return oauthError("unsupported_grant_type", `grant_type ${form.get("grant_type")}.`);
  }
}

/**
 * `POST /oauth2/token`.
 *
 * @example
 * ```ts
 * import { OAUTH2_CLIENT_ID, OAUTH2_CLIENT_SECRET, oauth2Token } from "./demo_oauth2.ts";
 * const body = new URLSearchParams({ grant_type: "client_credentials", client_id: OAUTH2_CLIENT_ID, client_secret: OAUTH2_CLIENT_SECRET });
 * const r = await oauth2Token(new Request("http://x.test/oauth2/token", { method: "POST", body }));
 * if (r.status !== 200 || typeof (await r.json()).access_token !== "string") throw new Error();
 * ```
 */
export async function oauth2Token(request: Request): Promise<Response> {
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, 405);
  const form = new URLSearchParams(await request.text());
  const client = clientOf(request, form);
  if (!client || client[0] !== OAUTH2_CLIENT_ID || client[1] !== OAUTH2_CLIENT_SECRET) {
    return oauthError("invalid_client", "Client authentication failed.", 401);
  }
  const grant = grantOf(form, client[0]);
  if (grant instanceof Response) return grant;
  const asked = Number(grant.expiresIn ?? form.get("expires_in"));
  const expiresIn = Number.isInteger(asked) && asked >= 1 && asked < OAUTH2_EXPIRES_IN
    ? asked
    : OAUTH2_EXPIRES_IN;
  // A long-running demo keeps at most this many grants: the oldest are forgotten.
  if (tokens.size > 10_000) tokens.clear();
  if (refreshTokens.size > 10_000) refreshTokens.clear();
  const token = `at-${crypto.randomUUID()}`;
  const refresh = `rt-${crypto.randomUUID()}`;
  tokens.set(token, { ...grant, expires: Date.now() + expiresIn * 1000 });
  refreshTokens.set(refresh, grant);
  return json({
    access_token: token,
    token_type: "Bearer",
    expires_in: expiresIn,
    refresh_token: refresh,
    ...(grant.scope ? { scope: grant.scope } : {}),
  });
}

/** A whole number from a form field within [min, max], else `fallback`. */
function bounded(value: string | null, min: number, max: number, fallback: number): number {
  const n = Number(value ?? "");
  return value !== null && Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

/**
 * `POST /oauth2/device_authorization` (RFC 8628 §3.1–3.2): a device code for
 * the demo client, approved by itself after a few polls.
 *
 * @example
 * ```ts
 * import { OAUTH2_CLIENT_ID, OAUTH2_CLIENT_SECRET, oauth2DeviceAuthorization } from "./demo_oauth2.ts";
 * const body = new URLSearchParams({ client_id: OAUTH2_CLIENT_ID, client_secret: OAUTH2_CLIENT_SECRET, interval: "1" });
 * const r = await oauth2DeviceAuthorization(new Request("http://x.test/oauth2/device_authorization", { method: "POST", body }));
 * const answer = await r.json();
 * if (r.status !== 200 || answer.interval !== 1 || answer.verification_uri !== "http://x.test/oauth2/device") throw new Error();
 * ```
 */
export async function oauth2DeviceAuthorization(request: Request): Promise<Response> {
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, 405);
  const form = new URLSearchParams(await request.text());
  const client = clientOf(request, form);
  if (!client || client[0] !== OAUTH2_CLIENT_ID || client[1] !== OAUTH2_CLIENT_SECRET) {
    return oauthError("invalid_client", "Client authentication failed.", 401);
  }
  if (devices.size > 10_000) devices.clear();
  const deviceCode = `dc-${crypto.randomUUID()}`;
  const letters = "BCDFGHJKLMNPQRSTVWXZ";
  const pick = () => letters[crypto.getRandomValues(new Uint8Array(1))[0] % letters.length];
  const userCode = `${Array.from({ length: 4 }, pick).join("")}-${
    Array.from({ length: 4 }, pick).join("")
  }`;
  const interval = bounded(form.get("interval"), 1, DEVICE_INTERVAL, DEVICE_INTERVAL);
  const expiresIn = bounded(form.get("device_expires_in"), 1, 600, DEVICE_EXPIRES_IN);
  const now = Date.now();
  devices.set(deviceCode, {
    client: client[0],
    scope: form.get("scope") ?? "",
    userCode,
    expires: now + expiresIn * 1000,
    intervalMs: interval * 1000,
    lastPoll: now,
    polls: 0,
    approveAfter: bounded(form.get("approve_after"), 0, 10, DEVICE_APPROVE_AFTER),
    deny: form.get("deny") === "true",
    expiresIn: form.get("expires_in"),
  });
  const page = `${new URL(request.url).origin}/oauth2/device`;
  return json({
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: page,
    verification_uri_complete: `${page}?user_code=${userCode}`,
    expires_in: expiresIn,
    interval,
  });
}

/** A device code's poll (§3.4–3.5): pending, slow down, expired, denied, or the grant. */
function deviceGrant(code: string, client: string): Omit<Grant, "expires"> | Response {
  const device = devices.get(code);
  if (!device || device.client !== client) {
    return oauthError("invalid_grant", "The device code is unknown.");
  }
  const now = Date.now();
  if (now > device.expires) {
    devices.delete(code);
    return oauthError("expired_token", "The device code expired before it was approved.");
  }
  // A few milliseconds of timer slack are not polling too fast.
  const early = now - device.lastPoll < device.intervalMs - 25;
  device.lastPoll = now;
  if (early) {
    device.intervalMs += 5000;
    return oauthError("slow_down", `Poll at most every ${device.intervalMs / 1000} s.`);
  }
  if (++device.polls <= device.approveAfter) {
    return oauthError("authorization_pending", "The device has not been approved yet.");
  }
  devices.delete(code);
  if (device.deny) return oauthError("access_denied", "The user refused the device.");
  return { client, scope: device.scope, expiresIn: device.expiresIn };
}

/**
 * `GET /oauth2/device`: the page a person would open to enter the user code.
 *
 * @example
 * ```ts
 * import { oauth2DevicePage } from "./demo_oauth2.ts";
 * if (oauth2DevicePage(new Request("http://x.test/oauth2/device")).status !== 200) throw new Error();
 * ```
 */
export function oauth2DevicePage(request: Request): Response {
  const code = new URL(request.url).searchParams.get("user_code") ?? "";
  const known = [...devices.values()].some((d) => d.userCode === code);
  return new Response(
    `The demo API approves devices by itself after ${DEVICE_APPROVE_AFTER} poll(s); ` +
      `nothing to enter here.${code ? ` Code ${code}: ${known ? "waiting" : "unknown"}.` : ""}\n`,
    { headers: { "content-type": "text/plain; charset=utf-8" } },
  );
}

/**
 * `GET /oauth2/me`: who a live token of `/oauth2/token` belongs to.
 *
 * @example
 * ```ts
 * import { oauth2Me } from "./demo_oauth2.ts";
 * const r = oauth2Me(new Request("http://x.test/oauth2/me", { headers: { authorization: "Bearer nope" } }));
 * if (r.status !== 401) throw new Error();
 * ```
 */
export function oauth2Me(request: Request): Response {
  const token = request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  const grant = tokens.get(token);
  if (!grant || grant.expires < Date.now()) {
    return json({ error: "invalid_token" }, 401, {
      "www-authenticate": 'Bearer error="invalid_token"',
    });
  }
  return json({ client_id: grant.client, username: grant.user ?? null, scope: grant.scope });
}

/**
 * `GET /basic/me`: HTTP Basic for the demo user.
 *
 * @example
 * ```ts
 * import { basicMe } from "./demo_oauth2.ts";
 * const ok = basicMe(new Request("http://x.test/basic/me", { headers: { authorization: `Basic ${btoa("demo:demo-password")}` } }));
 * if (ok.status !== 200) throw new Error();
 * ```
 */
export function basicMe(request: Request): Response {
  const expected = `Basic ${btoa(`${OAUTH2_USER}:${OAUTH2_PASSWORD}`)}`;
  if (request.headers.get("authorization") !== expected) {
    return json({ error: "unauthorized" }, 401, { "www-authenticate": 'Basic realm="demo"' });
  }
  return json({ username: OAUTH2_USER });
}

/**
 * `GET /api-key/me`: the demo key in a header, the query or a cookie.
 *
 * @example
 * ```ts
 * import { apiKeyMe } from "./demo_oauth2.ts";
 * if (apiKeyMe(new Request("http://x.test/api-key/me?api_key=demo-api-key")).status !== 200) throw new Error();
 * ```
 */
export function apiKeyMe(request: Request): Response {
  const url = new URL(request.url);
  const cookie = /(?:^|;\s*)api_key=([^;]*)/.exec(request.headers.get("cookie") ?? "")?.[1];
  const where = request.headers.get("x-api-key") === DEMO_API_KEY
    ? "header"
    : url.searchParams.get("api_key") === DEMO_API_KEY
    ? "query"
    : cookie === DEMO_API_KEY
    ? "cookie"
    : undefined;
  return where ? json({ key: "ok", in: where }) : json({ error: "unauthorized" }, 401);
}
