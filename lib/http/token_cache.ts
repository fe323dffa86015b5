/**
 * The run's OAuth2 tokens: one per distinct configuration, fetched once and
 * shared by every flow and `--jobs` worker (uses that arrive while it is
 * being fetched wait for that one fetch), fetched again shortly before it
 * expires and once after the API answered 401 to it.
 *
 * @module
 */
import type { Told } from "../model/told.ts";

/** A token the endpoint gave. */
export interface Token {
  accessToken: string;
  /** When it is fetched again (`performance.now()` time): its `expires_in` less a margin. */
  renewAt?: number;
  /** The refresh token the endpoint gave with it, used for the next fetch. */
  refreshToken?: string;
}

/**
 * One token request, for the reports: where it went, how it ended, how long it took.
 *
 * @example
 * ```ts
 * import type { TokenExchange } from "./token_cache.ts";
 * const e: TokenExchange = { url: "https://idp.test/token", grant: "client_credentials", status: 200, durationMs: 3 };
 * if (e.error !== undefined) throw new Error();
 * ```
 */
export interface TokenExchange {
  /** The token URL. */
  url: string;
  /** The grant sent (`refresh_token` when a refresh token was used). */
  grant: string;
  /** The status of the answer, when one came. */
  status?: number;
  durationMs: number;
  /** Why no token came of it (secrets never in it). */
  error?: string;
  /** `error` as flowrun's words and the values it quotes, when made so: a step masks the values. */
  told?: Told;
  /** RFC 8628's device authorization request, not a token request. */
  endpoint?: "device_authorization";
  /**
   * A device code's poll the token endpoint answered "ask again":
   * `authorization_pending` or `slow_down`.
   */
  pending?: string;
}

/**
 * How long before `expires_in` runs out a token is fetched again: 10 % of
 * its lifetime plus one second, at most 30 s and at most half the lifetime,
 * so a request never leaves with a token that expires on the way. The second
 * is `expires_in`'s own granularity: a provider that counts expiry in whole
 * seconds (oidc-provider sets `exp` to the issuing second, rounded down, plus
 * the lifetime) ends a token up to a second before `expires_in` has passed.
 *
 * @example
 * ```ts
 * import { renewMargin } from "./token_cache.ts";
 * if (renewMargin(3600) !== 30_000 || renewMargin(60) !== 7_000) throw new Error();
 * if (renewMargin(2) !== 1_000 || renewMargin(1) !== 500) throw new Error();
 * ```
 */
export function renewMargin(expiresInSeconds: number): number {
  return Math.min(30_000, expiresInSeconds * 100 + 1_000, expiresInSeconds * 500);
}

/** A configuration's token: the one held, or the fetch under way. */
interface Entry {
  token?: Token;
  pending?: Promise<Token>;
}

/**
 * The tokens of a run, by configuration key.
 *
 * @example
 * ```ts
 * import { TokenCache } from "./token_cache.ts";
 * const cache = new TokenCache();
 * let fetches = 0;
 * const fetch = () => Promise.resolve({ accessToken: `t${++fetches}` });
 * const [a, b] = await Promise.all([cache.get("k", fetch), cache.get("k", fetch)]);
 * if (a !== "t1" || b !== "t1" || fetches !== 1) throw new Error();
 * cache.reject("k", "t1");
 * if (await cache.get("k", fetch) !== "t2") throw new Error();
 * ```
 */
export class TokenCache {
  #entries = new Map<string, Entry>();

  /**
   * The token of `key`: the one held while it is fresh, else one `fetch`
   * (given the token held, for its refresh token), shared by every caller.
   */
  async get(key: string, fetch: (held?: Token) => Promise<Token>): Promise<string> {
    let entry = this.#entries.get(key);
    if (!entry) this.#entries.set(key, entry = {});
    const fresh = entry.token &&
      (entry.token.renewAt === undefined || performance.now() < entry.token.renewAt);
    if (fresh) return entry.token!.accessToken;
    if (!entry.pending) {
      const held = entry.token;
      const current = entry;
      current.pending = fetch(held).then((token) => {
        current.token = token;
        return token;
      }).finally(() => {
        current.pending = undefined;
      });
    }
    return (await entry.pending!).accessToken;
  }

  /**
   * The API refused `token` (401): the next {@linkcode get} fetches again,
   * unless another caller already replaced it.
   */
  reject(key: string, token: string): void {
    const entry = this.#entries.get(key);
    if (entry?.token?.accessToken === token) entry.token = { ...entry.token, renewAt: 0 };
  }
}
