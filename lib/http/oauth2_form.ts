/**
 * What every OAuth2 request flowrun sends has in common, whatever the grant
 * (RFC 6749, RFC 8628): a form POST carrying the client's credentials (HTTP
 * Basic as §2.3.1 encodes them, or in the body), sent under the same guards
 * (a 64 KiB answer, the run's timeout, no redirect followed, the step's CAs,
 * certificate and proxy) and reported as an exchange of its own; and the
 * reading of its JSON answer into a token or an error naming the URL.
 *
 * @module
 */
import type { AuthServices } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import type { ResolvedRequest } from "./request.ts";
import { RequestError } from "./request_error.ts";
import { around, joined, ownWords, told } from "../model/told.ts";
import { errorTold, failedTold, requestTo } from "./oauth2_told.ts";
import type { ReceivedResponse } from "./response.ts";
import { send } from "./send.ts";
import { renewMargin, type Token, type TokenExchange } from "./token_cache.ts";
import { clipped } from "../_util/clip.ts";

/**
 * The largest answer read from a token or device authorization endpoint: a
 * token endpoint's answer is a few hundred bytes, a few KiB with an ID token.
 *
 * @example
 * ```ts
 * import { MAX_TOKEN_RESPONSE } from "./oauth2_form.ts";
 * if (MAX_TOKEN_RESPONSE !== 65_536) throw new Error();
 * ```
 */
export const MAX_TOKEN_RESPONSE = 65_536;

/**
 * An `oauth2` block with every template resolved: what its requests send.
 *
 * @example
 * ```ts
 * import type { OAuth2Params } from "./oauth2_form.ts";
 * const p: OAuth2Params = { url: "https://idp.test/token", grant: "client_credentials", clientId: "app", clientAuth: "basic", fields: [] };
 * if (p.deviceUrl !== undefined) throw new Error();
 * ```
 */
export interface OAuth2Params {
  /** The token endpoint. */
  url: string;
  grant: string;
  clientId: string;
  clientSecret?: string;
  clientAuth: "basic" | "body";
  /** The grant's own parameters and the extra ones, in order. */
  fields: [string, string][];
  /** RFC 8628's device authorization endpoint (`device_code` grant). */
  deviceUrl?: string;
}

/**
 * Which endpoint a request goes to, as its report entry and its messages name it.
 *
 * @example
 * ```ts
 * import type { Endpoint } from "./oauth2_form.ts";
 * const e: Endpoint = { url: "https://idp.test/token", grant: "password", name: "token", key: "token_url" };
 * if (e.name !== "token") throw new Error();
 * ```
 */
export interface Endpoint {
  url: string;
  /** The grant reported for it. */
  grant: string;
  /** How messages name the request: "the OAuth2 token request". */
  name: "token" | "device authorization";
  /** The block's key that holds its URL, for the redirect hint. */
  key: "token_url" | "device_authorization_url";
}

/**
 * RFC 6749 §2.3.1's Basic credentials: the client id and secret each
 * form-encoded (`application/x-www-form-urlencoded`), joined by `:`, base64.
 *
 * @example
 * ```ts
 * import { clientBasic } from "./oauth2_form.ts";
 * // "s3cr3t+/=:" form-encoded is "s3cr3t%2B%2F%3D%3A"; a space is "+".
 * if (atob(clientBasic("my app", "s3cr3t+/=:")) !== "my+app:s3cr3t%2B%2F%3D%3A") throw new Error();
 * ```
 */
export function clientBasic(clientId: string, clientSecret: string): string {
  const encode = (s: string) => new URLSearchParams([["", s]]).toString().slice(1);
  const bytes = new TextEncoder().encode(`${encode(clientId)}:${encode(clientSecret)}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * A form POST to `url` with the client's credentials: HTTP Basic when it
 * has a secret and `client_auth` is `basic`, else `client_id` (and
 * `client_secret`) as form fields.
 *
 * @example
 * ```ts
 * import { formRequest } from "./oauth2_form.ts";
 * const params = { url: "https://idp.test/token", grant: "g", clientId: "app", clientAuth: "body" as const, fields: [] };
 * const r = formRequest("https://idp.test/token", new URLSearchParams({ grant_type: "g" }), params);
 * if (r.body !== "grant_type=g&client_id=app") throw new Error(String(r.body));
 * ```
 */
export function formRequest(
  url: string,
  form: URLSearchParams,
  params: OAuth2Params,
): ResolvedRequest {
  const headers: [string, string][] = [
    ["content-type", "application/x-www-form-urlencoded"],
    ["accept", "application/json"],
  ];
  const basic = params.clientAuth === "basic" && params.clientSecret !== undefined;
  if (basic) {
    headers.push(["authorization", `Basic ${clientBasic(params.clientId, params.clientSecret!)}`]);
  } else {
    form.append("client_id", params.clientId);
    if (params.clientSecret !== undefined) form.append("client_secret", params.clientSecret);
  }
  return { method: "POST", url, headers, body: form.toString() };
}

/**
 * Sends one OAuth2 request under the token request's guards and reads its
 * answer with `read`; reports the exchange (with `pending`'s word for an
 * answer that means "ask again"), or throws an {@linkcode AuthError} naming
 * the URL and why.
 *
 * @example
 * ```ts
 * import { postForm } from "./oauth2_form.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ ok: 1 }));
 * const url = `http://127.0.0.1:${server.addr.port}/token`;
 * const reported: unknown[] = [];
 * const services = { secret: () => {}, env: () => undefined, timeoutMs: 5000, onExchange: (e: unknown) => reported.push(e) };
 * const status = await postForm({ method: "POST", url, headers: [] }, { url, grant: "g", name: "token", key: "token_url" }, services, (r) => r.status);
 * await server.shutdown();
 * if (status !== 200 || reported.length !== 1) throw new Error();
 * ```
 */
export async function postForm<T>(
  request: ResolvedRequest,
  endpoint: Endpoint,
  services: AuthServices,
  read: (response: ReceivedResponse) => T,
  pending?: (value: T) => string | undefined,
): Promise<T> {
  const started = performance.now();
  const report = (status: number | undefined, more: Partial<TokenExchange>) =>
    services.onExchange?.({
      url: endpoint.url,
      grant: endpoint.grant,
      ...(endpoint.name === "token" ? {} : { endpoint: "device_authorization" as const }),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...more,
    });
  let response: ReceivedResponse;
  try {
    response = await send(request, {
      timeoutMs: services.timeoutMs,
      signal: services.signal,
      deadlines: services.deadlines,
      maxBodyBytes: MAX_TOKEN_RESPONSE,
      // No redirect is followed: it would carry the client's credentials (see redirectNote).
      followRedirects: false,
      ...services.transport?.(endpoint.url),
    });
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    const to = requestTo(endpoint);
    const why = error.code === "body-too-large"
      ? around(
        "",
        to,
        ` failed: its answer is larger than the ${MAX_TOKEN_RESPONSE / 1024} KiB a ` +
          `${endpoint.name} response may be.`,
      )
      : joined(to, ownWords(" got no response: "), error.told ?? told`${error.message}`);
    const made = new AuthError(why);
    report(undefined, { error: made.message, told: made.told });
    throw made;
  }
  try {
    const value = read(response);
    const word = pending?.(value);
    report(response.status, word === undefined ? {} : { pending: word });
    return value;
  } catch (error) {
    if (error instanceof AuthError) {
      report(response.status, {
        error: error.message,
        ...(error.told ? { told: error.told } : {}),
      });
    }
    throw error;
  } finally {
    response.close();
  }
}

/**
 * The answer's JSON object, if it is one, or its fields when it came form-encoded.
 *
 * @example
 * ```ts
 * import { bodyOf } from "./oauth2_form.ts";
 * import { ReceivedResponse } from "./response.ts";
 * if (bodyOf(new ReceivedResponse(200, {}, '{"a":1}'))?.a !== 1) throw new Error();
 * if (bodyOf(new ReceivedResponse(200, {}, "[1]")) !== undefined) throw new Error();
 * const form = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };
 * const github = new ReceivedResponse(200, form, "access_token=gho_1&scope=repo&token_type=bearer");
 * if (bodyOf(github)?.access_token !== "gho_1") throw new Error();
 * ```
 */
export function bodyOf(response: ReceivedResponse): Record<string, unknown> | undefined {
  const json = response.json;
  if (json.ok) {
    return typeof json.value === "object" && json.value !== null && !Array.isArray(json.value)
      ? json.value as Record<string, unknown>
      : undefined;
  }
  return formBody(response);
}

/**
 * An answer in the form encoding (`access_token=…&token_type=bearer`), as
 * GitHub's token endpoint gives it to a client that does not ask for JSON
 * and older providers give it to all: RFC 6749 says JSON, but the fields are
 * the same, so such an answer is read rather than refused.
 */
function formBody(response: ReceivedResponse): Record<string, unknown> | undefined {
  const type = response.contentType ?? "";
  if (!/^(application\/x-www-form-urlencoded|text\/plain)\b/i.test(type)) return undefined;
  const text = response.text.trim();
  if (!/^[\w.~%+-]+=[^\s]*$/.test(text)) return undefined;
  const form = new URLSearchParams(text);
  if (!form.has("access_token") && !form.has("error")) return undefined;
  return Object.fromEntries(form);
}

/**
 * An error answer's `error` and `error_description` (RFC 6749 §5.2), shortened, as a clause.
 *
 * @example
 * ```ts
 * import { errorOf } from "./oauth2_form.ts";
 * if (errorOf({ error: "invalid_client", error_description: "Unknown" }) !== " invalid_client (Unknown)") throw new Error();
 * ```
 */
export function errorOf(body: Record<string, unknown> | undefined): string {
  const error = typeof body?.error === "string" ? ` ${clipped(body.error, 100)}` : "";
  const description = typeof body?.error_description === "string"
    ? ` (${clipped(body.error_description, 300)})`
    : "";
  return `${error}${description}`;
}

/**
 * The start of a failed request's message: which request, where, what it answered.
 *
 * @example
 * ```ts
 * import { failedAt } from "./oauth2_form.ts";
 * const e = { url: "https://idp.test/t", grant: "g", name: "token" as const, key: "token_url" as const };
 * if (failedAt(e, 401) !== "The OAuth2 token request to https://idp.test/t failed: it answered 401") throw new Error();
 * ```
 */
export function failedAt(endpoint: Endpoint, status: number): string {
  return `The OAuth2 ${endpoint.name} request to ${endpoint.url} failed: it answered ${status}`;
}

/**
 * An answer that is not a success, as an {@linkcode AuthError}: its status,
 * `error` and `error_description`, and why a redirect is not followed.
 *
 * @example
 * ```ts
 * import { refused } from "./oauth2_form.ts";
 * import { ReceivedResponse } from "./response.ts";
 * const e = { url: "https://idp.test/t", grant: "g", name: "token" as const, key: "token_url" as const };
 * const error = refused(new ReceivedResponse(302, { location: "https://x.test/t" }, ""), undefined, e);
 * if (!error.message.includes("set token_url to https://x.test/t")) throw new Error(error.message);
 * ```
 */
export function refused(
  response: ReceivedResponse,
  body: Record<string, unknown> | undefined,
  endpoint: Endpoint,
): AuthError {
  const redirect = response.status >= 300 && response.status < 400
    ? ` flowrun does not follow a ${endpoint.name} endpoint's redirects (it would carry the client's credentials): set ${endpoint.key} to ${
      response.headers.location ?? "the final URL"
    }.`
    : "";
  const location = response.headers.location;
  const to = redirect && location !== undefined
    ? around(redirect.slice(0, redirect.lastIndexOf(location)), told`${location}`, ".")
    : ownWords(redirect);
  return new AuthError(
    joined(failedTold(endpoint, response.status), errorTold(body), ownWords("."), to),
  );
}

/**
 * Registers every token of an answer as a secret, before anything that may
 * hold it is reported: a token in an error answer is masked too.
 *
 * @example
 * ```ts
 * import { registerTokens } from "./oauth2_form.ts";
 * const secrets: string[] = [];
 * registerTokens({ access_token: "a", id_token: "i", error: "x" }, { secret: (s) => void secrets.push(s) });
 * if (secrets.join() !== "a,i") throw new Error(secrets.join());
 * ```
 */
export function registerTokens(
  body: Record<string, unknown> | undefined,
  services: Pick<AuthServices, "secret">,
): void {
  for (const key of ["access_token", "refresh_token", "id_token"]) {
    if (typeof body?.[key] === "string") services.secret(body[key] as string);
  }
}

/**
 * The token of a token endpoint's answer (RFC 6749 §5.1), or why there is
 * none (§5.2). Every token in it is registered as a secret first.
 *
 * @example
 * ```ts
 * import { tokenOf } from "./oauth2_form.ts";
 * import { ReceivedResponse } from "./response.ts";
 * const e = { url: "https://idp.test/t", grant: "g", name: "token" as const, key: "token_url" as const };
 * const secrets: string[] = [];
 * const services = { secret: (s: string) => void secrets.push(s), env: () => undefined, timeoutMs: 1 };
 * const token = tokenOf(new ReceivedResponse(200, {}, '{"access_token":"t-1","expires_in":60}'), e, undefined, services);
 * if (token.accessToken !== "t-1" || token.renewAt === undefined || secrets[0] !== "t-1") throw new Error();
 * ```
 */
export function tokenOf(
  response: ReceivedResponse,
  endpoint: Endpoint,
  held: Token | undefined,
  services: AuthServices,
): Token {
  const body = bodyOf(response);
  registerTokens(body, services);
  if (response.status < 200 || response.status > 299) throw refused(response, body, endpoint);
  const failed = failedTold(endpoint, response.status);
  if (!body) {
    const type = response.contentType ?? "no content type";
    throw new AuthError(joined(failed, told` with a body that is not a JSON object (${type}).`));
  }
  if (typeof body.access_token !== "string" || body.access_token === "") {
    throw new AuthError(
      joined(failed, ownWords(" without an access_token"), errorTold(body), ownWords(".")),
    );
  }
  const refreshToken = typeof body.refresh_token === "string"
    ? body.refresh_token
    : held?.refreshToken;
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    // A token is fetched again a margin before expires_in runs out; none without a lifetime.
    ...(Number.isFinite(expiresIn) && expiresIn > 0
      ? { renewAt: performance.now() + expiresIn * 1000 - renewMargin(expiresIn) }
      : {}),
    ...(refreshToken ? { refreshToken } : {}),
  };
}
