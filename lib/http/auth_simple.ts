/**
 * The kinds that add a credential as it is: `basic` (RFC 7617), `bearer`
 * (RFC 6750 §2.1) and `api_key` (a header, a query parameter or a cookie).
 *
 * @module
 */
import type { Auth } from "../model/auth.ts";
import type { ResolvedRequest } from "./request.ts";
import type { ReceivedResponse } from "./response.ts";
import { type AuthFactory, type AuthServices, hasHeader, setHeader } from "./auth.ts";
import { challengedScheme, schemeNote } from "./bearer_scheme.ts";
import { AuthError } from "./auth_error.ts";
import { ownWords } from "../model/told.ts";

/**
 * RFC 7617's credentials: `user-id ":" password`, UTF-8, base64.
 *
 * @example
 * ```ts
 * import { encodeBasic } from "./auth_simple.ts";
 * if (encodeBasic("Aladdin", "open sesame") !== "QWxhZGRpbjpvcGVuIHNlc2FtZQ==") throw new Error();
 * if (encodeBasic("test", "123\u00a3") !== "dGVzdDoxMjPCow==") throw new Error();
 * ```
 */
export function encodeBasic(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A credential that renders empty is a mistake (an unset secret), not something to send. */
function nonEmpty(value: string, what: string): string {
  if (value !== "") return value;
  // `what` names the credential by the flow's own text: the message quotes no value.
  throw new AuthError(ownWords(
    `${what} is empty: the variable it reads is unset or empty, so no credential would be sent.`,
  ));
}

/**
 * `basic`: RFC 7617, `user:password` in UTF-8, base64, after `Basic` in `Authorization`, or
 * in the block's `header` after its `scheme` (none when empty).
 *
 * @example
 * ```ts
 * import { basic } from "./auth_simple.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const auth = { kind: "basic" as const, username: parseTemplate("u"), password: parseTemplate("p") };
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await basic(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 }).apply(request);
 * if (request.headers[0][1] !== "Basic dTpw") throw new Error();
 * const own = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await basic({ ...auth, header: "X-Authorization", scheme: "" }, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 }).apply(own);
 * if (own.headers[0].join(": ") !== "X-Authorization: dTpw") throw new Error();
 * ```
 */
export const basic: AuthFactory = (auth, render, services) => ({
  apply(request) {
    const a = auth as Extract<Auth, { kind: "basic" }>;
    const password = render(a.password);
    services.secret(password);
    const encoded = encodeBasic(render(a.username), password);
    services.secret(encoded);
    // A page's own header (`X-Authorization`) or word (none: bare base64), when the block names them.
    const word = a.scheme ?? "Basic";
    setHeader(request, a.header ?? "authorization", word === "" ? encoded : `${word} ${encoded}`);
    return Promise.resolve();
  },
});

/**
 * `bearer`: RFC 6750 §2.1, the word before the token `scheme` when written;
 * else `Bearer` until a 401 challenges exactly one other token scheme
 * (`WWW-Authenticate: Token`): then the request is sent once more with that
 * word, and the flow's later requests to that origin send it from the start.
 *
 * @example
 * ```ts
 * import { bearer } from "./auth_simple.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await bearer({ kind: "bearer", token: parseTemplate("t") }, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 }).apply(request);
 * if (request.headers[0][1] !== "Bearer t") throw new Error();
 * const drf = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await bearer({ kind: "bearer", token: parseTemplate("t"), scheme: "Token" }, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 }).apply(drf);
 * if (drf.headers[0][1] !== "Token t") throw new Error();
 * ```
 */
export const bearer: AuthFactory = (auth, render, services) => {
  const a = auth as Extract<Auth, { token: unknown }>;
  let note: string | undefined;
  const token = () => {
    const value = nonEmpty(render(a.token), `The bearer token "${a.token.source}"`);
    services.secret(value);
    return value;
  };
  const wordAt = (url: string) => a.scheme ?? services.schemes?.get(originOf(url)) ?? "Bearer";
  return {
    apply(request) {
      const word = wordAt(request.url);
      if (!a.scheme && word !== "Bearer" && !hasHeader(request, "authorization")) {
        note = schemeNote(word);
      }
      setHeader(request, "authorization", `${word} ${token()}`);
      return Promise.resolve();
    },
    retry(response, request) {
      return Promise.resolve(
        !a.scheme && learnScheme(response, request, wordAt, token(), services),
      );
    },
    note: () => note,
  };
};

/**
 * Whether a 401 asks for another word before the token this request sent
 * (not a header the step wrote), at the request's own origin: if so, the
 * flow's servers learn it for that origin.
 */
function learnScheme(
  response: ReceivedResponse,
  request: ResolvedRequest,
  wordAt: (url: string) => string,
  token: string,
  services: AuthServices,
): boolean {
  const word = challengedScheme(response);
  const origin = originOf(request.url);
  if (!word || !services.schemes) return false;
  if (response.url !== undefined && originOf(response.url) !== origin) return false;
  const sent = wordAt(request.url);
  if (word.toLowerCase() === sent.toLowerCase()) return false;
  const header = request.headers.find(([n]) => n.toLowerCase() === "authorization");
  if (header?.[1] !== `${sent} ${token}`) return false;
  services.schemes.set(origin, word);
  return true;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * `api_key`: a header, a query parameter (encoded) or a cookie.
 *
 * @example
 * ```ts
 * import { apiKey } from "./auth_simple.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const request = { method: "GET", url: "http://x.test/a?b=1", headers: [] as [string, string][] };
 * const auth = { kind: "api_key" as const, name: "api key", value: parseTemplate("a&b"), in: "query" as const };
 * await apiKey(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 }).apply(request);
 * if (request.url !== "http://x.test/a?b=1&api%20key=a%26b") throw new Error(request.url);
 * ```
 */
export const apiKey: AuthFactory = (auth, render, services) => ({
  apply(request) {
    const a = auth as Extract<Auth, { kind: "api_key" }>;
    const value = nonEmpty(render(a.value), `The API key "${a.value.source}"`);
    services.secret(value);
    if (a.in === "header") setHeader(request, a.name, value);
    else if (a.in === "cookie") addCookie(request, `${a.name}=${value}`);
    else request.url = withQuery(request.url, a.name, value);
    return Promise.resolve();
  },
});

/** The URL with one more query parameter, form-encoded; one the step wrote wins. */
function withQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has(name)) return url;
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const hash = url.indexOf("#");
  const head = hash < 0 ? url : url.slice(0, hash);
  const tail = hash < 0 ? "" : url.slice(hash);
  return `${head}${parsed.search ? "&" : "?"}${pair}${tail}`;
}

/** A cookie after those the request has. */
function addCookie(request: ResolvedRequest, pair: string): void {
  const at = request.headers.findIndex(([n]) => n.toLowerCase() === "cookie");
  if (at < 0) request.headers.push(["cookie", pair]);
  else request.headers[at] = [request.headers[at][0], `${request.headers[at][1]}; ${pair}`];
}
