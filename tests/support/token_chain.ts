/**
 * Recordings of a token chain: a journey of `n` POSTs, each sending back the
 * token the previous answer handed out (an SPA's sync cursor, a refreshed
 * session token, a rotating bearer). Each value sent was produced by the
 * answer just before, so a stage that looks back over every earlier answer
 * (or every later request) for each value makes the conversion quadratic.
 */
import { type EntrySpec, harOf } from "./har_records.ts";

/** Where each request sends the token back. */
export type ChainPlace = "body" | "header" | "refresh" | "jwt";

/** The `i`th token handed out: a high-entropy string unique in the recording. */
export function chainToken(i: number): string {
  const mixed = (i * 2654435761 % 4294967296).toString(16).padStart(8, "0");
  return `t${mixed}${i.toString(36)}`;
}

/** The `i`th token as a JWT: every one begins with the same header, `eyJhbGciOi…`. */
export function chainJwt(i: number): string {
  const payload = btoa(JSON.stringify({ sub: "ann", n: i })).replace(/=+$/, "");
  return `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${chainToken(i)}sig`;
}

/**
 * A HAR of `n` POSTs, the first sending no token, each later one the token
 * the answer before it handed out: in a JSON field (`body`, `POST /api/sync`),
 * as a bearer (`header`), a JWT as a bearer (`jwt`), or as a refresh token to a login's path after a
 * first sign-in with a typed password (`refresh`, `POST /auth/refresh`).
 *
 * @example
 * ```ts
 * import { chainToken, tokenChain } from "./token_chain.ts";
 * const har = JSON.parse(tokenChain(3, "body"));
 * if (!har.log.entries[2].request.postData.text.includes(chainToken(1))) throw new Error();
 * ```
 */
export function tokenChain(n: number, place: ChainPlace): string {
  return harOf(chainSpecs(n, place));
}

/** The entries of {@linkcode tokenChain}, for `recordsOf` (har_records.ts). */
export function chainSpecs(n: number, place: ChainPlace): EntrySpec[] {
  const specs: EntrySpec[] = [];
  for (let i = 0; i < n; i++) specs.push(link(i, place));
  return specs;
}

/** The `i`th request of a chain sending its token at `place`. */
function link(i: number, place: ChainPlace): EntrySpec {
  const token = place === "jwt" ? chainJwt : chainToken;
  const prev = i > 0 ? token(i - 1) : undefined;
  if (place === "refresh") {
    return {
      method: "POST",
      url: "http://app.test/auth/refresh",
      body: JSON.stringify(
        prev ? { refresh_token: prev } : { username: "ann", password: "s3cret-pw" },
      ),
      json: { access_token: `a${chainToken(i)}`, refresh_token: chainToken(i) },
    };
  }
  return {
    method: "POST",
    url: "http://app.test/api/sync",
    headers: place !== "body" && prev ? [["Authorization", `Bearer ${prev}`]] : [],
    body: JSON.stringify(place === "body" ? (prev ? { token: prev } : {}) : { n: i }),
    json: { token: token(i) },
  };
}
