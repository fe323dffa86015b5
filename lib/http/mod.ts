/**
 * The HTTP stage: takes a resolved request, gives a received response or a
 * {@linkcode RequestError} saying why there is none.
 *
 * - `request.ts` works a step's request spec out into a
 *   {@linkcode ResolvedRequest}, every template rendered in one pass; `url.ts`
 *   encodes what is interpolated into a URL for the place it lands;
 *   `request_maps.ts` checks headers and parameters that come whole from one
 *   expression (`headers: "${vars.headers}"`).
 * - `send.ts` sends it: one request at a time, a redirect followed hop by hop
 *   when asked (`redirect.ts`), under a deadline (`deadlines.ts`), its body
 *   read within its caps (`read_body.ts`, `body_blocks.ts`,
 *   `body_limits.ts`), a network failure worded by `network_reason.ts`.
 * - `insecure.ts` is the transport for `--insecure` (`node:https`), loaded
 *   only by a run that needs it, so only its type is exported here.
 * - `response.ts` is the response as checks read it; `cookie_jar.ts` the
 *   jar a flow run keeps; `curl.ts` a request as a command to paste that
 *   sends the same bytes, its body written by `curl_body.ts` (a multipart
 *   body as the runtime writes it: `multipart_bytes.ts`).
 *
 * - Auth: `auth.ts` is the one place a step's `auth:` block meets its
 *   request — an {@linkcode AuthHandler}'s `apply` adds credentials to the
 *   resolved request just before it is sent (after cookies), its `retry`
 *   answers a response (a 401) with one more request; `auth_kinds.ts` lists
 *   the kinds (`AUTH_HANDLERS`): `auth_simple.ts` (basic, bearer, api_key),
 *   `auth_command.ts` (a bearer token a program prints, `io/run_command.ts`),
 *   `oauth2.ts` (token requests, cached run-wide in `token_cache.ts`; what
 *   every OAuth2 request shares, its guards and its answer read, in
 *   `oauth2_form.ts`; RFC 8628's `device_code` grant, polled, in
 *   `oauth2_device.ts`).
 *   `auth_digest.ts` (Digest, RFC 7616: `auth_challenge.ts` reads a
 *   `WWW-Authenticate` header, `digest.ts` computes the answer, sent again
 *   after the 401 through `retry`, a second 401 named by `resent`) and
 *   `auth_sigv4.ts` (AWS SigV4, each request signed by `sigv4.ts`, the
 *   credentials found by `io/aws_credentials.ts`). A failure to get
 *   credentials is an {@linkcode AuthError}.
 * Only this folder calls `fetch` or imports `node:http(s)`/`node:tls`. No
 * function here is over the size limits, so there are no exceptions.
 *
 * @example
 * ```ts
 * import { resolveRequest, send } from "./mod.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const url = parseTemplate(`http://127.0.0.1:${server.addr.port}/`);
 * const response = await send(resolveRequest({ method: "GET", url, headers: [] }, scope), { timeoutMs: 5000 });
 * await server.shutdown();
 * if (response.status !== 200 || response.text !== "ok") throw new Error();
 * ```
 *
 * @module
 */
export {
  DEFAULT_BODY_MEMORY_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  formatBytes,
  MAX_BODY_MEMORY_BYTES,
} from "./body_limits.ts";
export {
  AuthError,
  type AuthFactory,
  type AuthHandler,
  type AuthServices,
  setHeader,
} from "./auth.ts";
export { AUTH_HANDLERS, authHandler } from "./auth_kinds.ts";
export { type AuthChallenge, ChallengeSyntaxError, parseChallenges } from "./auth_challenge.ts";
export {
  digestAuthorization,
  DigestError,
  type DigestInput,
  isStale,
  pickDigestChallenge,
} from "./digest.ts";
export {
  type AwsCredentials,
  canonicalHeaders,
  canonicalPath,
  canonicalQuery,
  payloadHash,
  signingKey,
  signV4,
  type SigV4Params,
  type SigV4Request,
  type SigV4Signature,
} from "./sigv4.ts";
export { TokenCache, type TokenExchange } from "./token_cache.ts";
export { CookieJar, publicSuffixes } from "./cookie_jar.ts";
export { curlCommand, type CurlRequest, type CurlVia, shellQuote, shellWord } from "./curl.ts";
export { Deadlines, type RequestDeadline, requestDeadline } from "./deadlines.ts";
export type { InsecureVia } from "./insecure.ts";
export { networkReason } from "./network_reason.ts";
export { MAX_REDIRECTS, redirectTarget } from "./redirect.ts";
export { addCookies, MAX_REQUEST_HEAD, type ResolvedRequest, resolveRequest } from "./request.ts";
export { reasonOf, RequestError } from "./request_error.ts";
export {
  parseCookies,
  parseSetCookie,
  ReceivedResponse,
  type ResponseSelection,
  type SetCookie,
  type SpilledBody,
} from "./response.ts";
export { send, type SendOptions } from "./send.ts";
export { encodeFor, renderUrl, type Zone } from "./url.ts";
