/**
 * A bearer token from the run's token cache, whatever makes it (an OAuth2
 * token endpoint, a program's output): sent as `Authorization: Bearer …`
 * unless the step wrote its own header, a secret from the moment it is
 * read, and after the API answers 401 to it dropped from the cache once, so
 * that the request is sent again with a fresh one.
 *
 * @module
 */
import { type AuthHandler, type AuthServices, hasHeader, setHeader } from "./auth.ts";
import type { ResolvedRequest } from "./request.ts";
import type { ReceivedResponse } from "./response.ts";
import { type Token, TokenCache } from "./token_cache.ts";

/** Where a token comes from: its cache key, and how to fetch it (given the token held, if any). */
export interface TokenSource {
  key: string;
  fetch: (held?: Token) => Promise<Token>;
}

/** A run without a cache of its own (a library call) still shares tokens within itself. */
const fallbackCache = new TokenCache();

/**
 * The handler of a bearer kind whose token lives in the run's cache.
 * `source` runs for each request the step sends (its key may depend on
 * rendered templates); it is not called when the step wrote its own
 * `Authorization` header.
 *
 * @example
 * ```ts
 * import { cachedBearer } from "./cached_bearer.ts";
 * let fetched = 0;
 * const auth = cachedBearer({ secret: () => {}, env: () => undefined, timeoutMs: 1000 }, () => ({
 *   key: "k",
 *   fetch: () => Promise.resolve({ accessToken: `t-${++fetched}` }),
 * }));
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await auth.apply(request);
 * if (request.headers[0][1] !== "Bearer t-1") throw new Error();
 * if (!await auth.retry!({ status: 401 } as never, request)) throw new Error("a 401 is sent again");
 * const again = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await auth.apply(again);
 * if (again.headers[0][1] !== "Bearer t-2") throw new Error(again.headers[0][1]);
 * ```
 */
export function cachedBearer(
  services: AuthServices,
  source: (request: ResolvedRequest) => TokenSource,
): AuthHandler {
  const tokens = services.tokens ?? fallbackCache;
  let sent: { key: string; token: string } | undefined;
  return {
    async apply(request: ResolvedRequest) {
      // A step that writes its own authorization header needs no token.
      if (hasHeader(request, "authorization")) return;
      const { key, fetch } = source(request);
      const token = await tokens.get(key, fetch);
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
}
