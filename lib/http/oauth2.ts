/**
 * `oauth2`: a bearer token from an RFC 6749 token endpoint, fetched once per
 * run per configuration (see `token_cache.ts`), sent as
 * `Authorization: Bearer …`, fetched again before `expires_in` runs out and
 * once after the API answers 401 to it. The client authenticates with HTTP
 * Basic (RFC 6749 §2.3.1: each part form-encoded, then base64) or in the
 * body. The token request is bounded (64 KiB answer, the run's timeout, no
 * redirect followed) and reported as an exchange of its own.
 *
 * @module
 */
import type { OAuth2Auth } from "../model/auth.ts";
import { type AuthFactory, type AuthServices, setHeader } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import type { ResolvedRequest } from "./request.ts";
import { RequestError } from "./request_error.ts";
import type { ReceivedResponse } from "./response.ts";
import { send } from "./send.ts";
import { renewMargin, type Token, TokenCache } from "./token_cache.ts";

/**
 * The largest token response read: a token endpoint's answer is a few
 * hundred bytes, a few KiB with an ID token.
 *
 * @example
 * ```ts
 * import { MAX_TOKEN_RESPONSE } from "./oauth2.ts";
 * if (MAX_TOKEN_RESPONSE !== 65_536) throw new Error();
 * ```
 */
export const MAX_TOKEN_RESPONSE = 65_536;

/** The parameters of a token request, every template resolved. */
interface Params {
  url: string;
  grant: string;
  clientId: string;
  clientSecret?: string;
  clientAuth: "basic" | "body";
  /** The grant's own parameters and the extra ones, in order. */
  fields: [string, string][];
}

/** A run without a cache of its own (a library call) still shares tokens within itself. */
const fallbackCache = new TokenCache();

/**
 * The `oauth2` kind.
 *
 * @example
 * ```ts
 * import { oauth2 } from "./oauth2.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
 *   Response.json({ access_token: "t-1", token_type: "Bearer", expires_in: 60 }));
 * const auth = {
 *   kind: "oauth2" as const, grantType: "client_credentials" as const, clientAuth: "basic" as const, extra: [],
 *   tokenUrl: parseTemplate(`http://127.0.0.1:${server.addr.port}/token`), clientId: parseTemplate("app"),
 * };
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await oauth2(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 5000 }).apply(request);
 * await server.shutdown();
 * if (request.headers[0][1] !== "Bearer t-1") throw new Error();
 * ```
 */
export const oauth2: AuthFactory = (auth, render, services) => {
  const spec = auth as OAuth2Auth;
  const tokens = services.tokens ?? fallbackCache;
  let sent: { key: string; token: string } | undefined;
  return {
    async apply(request: ResolvedRequest) {
      // A step that writes its own authorization header needs no token.
      if (request.headers.some(([n]) => n.toLowerCase() === "authorization")) return;
      const params = resolve(spec, render, services);
      const key = JSON.stringify(params);
      const token = await tokens.get(key, (held) => fetchToken(params, held, services));
      services.secret(token);
      sent = { key, token };
      setHeader(request, "authorization", `Bearer ${token}`);
    },
    retry(response: ReceivedResponse) {
      if (response.status !== 401 || !sent) return Promise.resolve(false);
      tokens.reject(sent.key, sent.token);
      sent = undefined;
      return Promise.resolve(true);
    },
  };
};

/** The block's templates resolved, its credentials registered as secrets. */
function resolve(
  spec: OAuth2Auth,
  render: (t: NonNullable<OAuth2Auth["scope"]>) => string,
  services: AuthServices,
): Params {
  const value = (t: OAuth2Auth["scope"]) => t === undefined ? undefined : render(t);
  const url = render(spec.tokenUrl);
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    throw new AuthError(`The OAuth2 token_url "${url}" is not an absolute http or https URL.`);
  }
  const named: [string, string | undefined][] = [
    ["scope", value(spec.scope)],
    ["audience", value(spec.audience)],
    ["username", value(spec.username)],
    ["password", value(spec.password)],
    ["refresh_token", value(spec.refreshToken)],
  ];
  const fields = [
    ...named.filter((f): f is [string, string] => f[1] !== undefined),
    ...spec.extra.map(([name, t]) => [name, render(t)] as [string, string]),
  ];
  const clientSecret = value(spec.clientSecret);
  for (const secret of [clientSecret, value(spec.password), value(spec.refreshToken)]) {
    if (secret) services.secret(secret);
  }
  return {
    url,
    grant: spec.grantType,
    clientId: render(spec.clientId),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    clientAuth: spec.clientAuth,
    fields,
  };
}

/**
 * RFC 6749 §2.3.1's Basic credentials: the client id and secret each
 * form-encoded (`application/x-www-form-urlencoded`), joined by `:`, base64.
 *
 * @example
 * ```ts
 * import { clientBasic } from "./oauth2.ts";
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

/** The token request: the grant (or the refresh token held), the client's credentials. */
function tokenRequest(params: Params, held: Token | undefined): ResolvedRequest {
  const refresh = held?.refreshToken;
  const form = new URLSearchParams();
  form.append("grant_type", refresh ? "refresh_token" : params.grant);
  if (refresh) form.append("refresh_token", refresh);
  for (const [name, value] of params.fields) {
    // The grant's own parameters are not sent with a refresh; scope and extras are.
    if (refresh && ["username", "password", "refresh_token"].includes(name)) continue;
    form.append(name, value);
  }
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
  return { method: "POST", url: params.url, headers, body: form.toString() };
}

/**
 * One token request and its answer made a token, its exchange reported; a
 * refresh token the endpoint refused falls back to the grant itself once.
 */
async function fetchToken(
  params: Params,
  held: Token | undefined,
  services: AuthServices,
): Promise<Token> {
  try {
    return await exchange(params, held, services);
  } catch (error) {
    if (!held?.refreshToken || !(error instanceof AuthError)) throw error;
    return await exchange(params, undefined, services);
  }
}

/** Sends one token request; the token, or an {@linkcode AuthError} naming the URL and why. */
async function exchange(
  params: Params,
  held: Token | undefined,
  services: AuthServices,
): Promise<Token> {
  const request = tokenRequest(params, held);
  const grant = held?.refreshToken ? "refresh_token" : params.grant;
  const started = performance.now();
  const report = (status: number | undefined, error?: string) =>
    services.onExchange?.({
      url: params.url,
      grant,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(error === undefined ? {} : { error }),
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
      ...services.transport?.(params.url),
    });
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    const why = error.code === "body-too-large"
      ? `The OAuth2 token request to ${params.url} failed: its answer is larger than the ` +
        `${MAX_TOKEN_RESPONSE / 1024} KiB a token response may be.`
      : `The OAuth2 token request to ${params.url} got no response: ${error.message}`;
    report(undefined, why);
    throw new AuthError(why);
  }
  try {
    const token = tokenOf(response, params.url, held, services);
    report(response.status);
    return token;
  } catch (error) {
    if (error instanceof AuthError) report(response.status, error.message);
    throw error;
  } finally {
    response.close();
  }
}

/** The token of a successful answer (RFC 6749 §5.1), or why there is none (§5.2). */
function tokenOf(
  response: ReceivedResponse,
  url: string,
  held: Token | undefined,
  services: AuthServices,
): Token {
  const body = bodyOf(response);
  // Registered before anything is reported: a token in an error answer is masked too.
  for (const key of ["access_token", "refresh_token", "id_token"]) {
    if (typeof body?.[key] === "string") services.secret(body[key] as string);
  }
  const failed = `The OAuth2 token request to ${url} failed: it answered ${response.status}`;
  if (response.status < 200 || response.status > 299) {
    throw new AuthError(`${failed}${errorOf(body)}.${redirectNote(response)}`);
  }
  if (!body) {
    const type = response.contentType ?? "no content type";
    throw new AuthError(`${failed} with a body that is not a JSON object (${type}).`);
  }
  if (typeof body.access_token !== "string" || body.access_token === "") {
    throw new AuthError(`${failed} without an access_token.`);
  }
  const refreshToken = typeof body.refresh_token === "string"
    ? body.refresh_token
    : held?.refreshToken;
  return {
    accessToken: body.access_token,
    ...renewal(Number(body.expires_in)),
    ...(refreshToken ? { refreshToken } : {}),
  };
}

/** The answer's JSON object, if it is one. */
function bodyOf(response: ReceivedResponse): Record<string, unknown> | undefined {
  const json = response.json;
  return json.ok && typeof json.value === "object" && json.value !== null &&
      !Array.isArray(json.value)
    ? json.value as Record<string, unknown>
    : undefined;
}

/** An error answer's `error` and `error_description` (§5.2), shortened, as a clause. */
function errorOf(body: Record<string, unknown> | undefined): string {
  const error = typeof body?.error === "string" ? ` ${body.error.slice(0, 100)}` : "";
  const description = typeof body?.error_description === "string"
    ? ` (${body.error_description.slice(0, 300)})`
    : "";
  return `${error}${description}`;
}

/** When a token of `expires_in` seconds is fetched again; none without a lifetime. */
function renewal(expiresIn: number): Pick<Token, "renewAt"> {
  return Number.isFinite(expiresIn) && expiresIn > 0
    ? { renewAt: performance.now() + expiresIn * 1000 - renewMargin(expiresIn) }
    : {};
}

/** A redirect is not followed with credentials: said so. */
function redirectNote(response: ReceivedResponse): string {
  return response.status >= 300 && response.status < 400
    ? ` flowrun does not follow a token endpoint's redirects (it would carry the client's credentials): set token_url to ${
      response.headers.location ?? "the final URL"
    }.`
    : "";
}
