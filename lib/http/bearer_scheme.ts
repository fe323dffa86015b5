/**
 * The word before a bearer token, as the server asks for it. RFC 6750 says
 * `Bearer`, but many servers take their own (Django REST framework's
 * `TokenAuthentication` wants `Token`, JWT libraries `JWT`), which no
 * document says and only the 401 shows: `WWW-Authenticate: Token`. As
 * curl's `--anyauth` picks a method from the server's challenge, a 401
 * that challenges exactly one other token scheme names the word to send.
 *
 * @module
 */
import { parseChallenges } from "./auth_challenge.ts";
import type { ReceivedResponse } from "./response.ts";

/** Schemes that are not a token word: a challenge naming one is answered otherwise, or not at all. */
const NOT_A_TOKEN_WORD = new Set([
  "basic",
  "digest",
  "negotiate",
  "bearer",
  "ntlm",
  "aws4-hmac-sha256",
]);

/**
 * The one token scheme a 401 challenges, as the server spells it; none when
 * the answer is not a 401, has no `WWW-Authenticate`, does not parse,
 * challenges several schemes, or challenges `Bearer` (the token is then
 * refused for another reason) or a scheme a token does not answer.
 *
 * @example
 * ```ts
 * import { challengedScheme } from "./bearer_scheme.ts";
 * import { ReceivedResponse } from "./response.ts";
 * const drf = new ReceivedResponse(401, { "www-authenticate": "Token" }, "");
 * if (challengedScheme(drf) !== "Token") throw new Error();
 * const jwt = new ReceivedResponse(401, { "www-authenticate": 'JWT realm="api"' }, "");
 * if (challengedScheme(jwt) !== "JWT") throw new Error();
 * const both = new ReceivedResponse(401, { "www-authenticate": 'Token, Bearer realm="api"' }, "");
 * if (challengedScheme(both) !== undefined) throw new Error();
 * ```
 */
export function challengedScheme(response: ReceivedResponse): string | undefined {
  const header = response.status === 401 ? response.headers["www-authenticate"] : undefined;
  if (!header) return undefined;
  let schemes: string[];
  try {
    schemes = parseChallenges(header).map((c) => c.scheme);
  } catch {
    return undefined;
  }
  const distinct = new Set(schemes.map((s) => s.toLowerCase()));
  if (distinct.size !== 1) return undefined;
  const [word] = distinct;
  return NOT_A_TOKEN_WORD.has(word) ? undefined : schemes[0];
}

/**
 * The words a flow's servers asked for, by origin: a flow's later requests
 * to that origin send the word from the start. One map per flow run.
 *
 * @example
 * ```ts
 * import type { LearnedSchemes } from "./bearer_scheme.ts";
 * const learned: LearnedSchemes = new Map([["http://127.0.0.1:8000", "Token"]]);
 * if (learned.get("http://127.0.0.1:8000") !== "Token") throw new Error();
 * ```
 */
export type LearnedSchemes = Map<string, string>;

/**
 * What the reports say of a token sent with a word the server asked for.
 *
 * @example
 * ```ts
 * import { schemeNote } from "./bearer_scheme.ts";
 * if (schemeNote("Token") !== "sent as Token: the server's WWW-Authenticate asked for it") throw new Error();
 * ```
 */
export function schemeNote(scheme: string): string {
  return `sent as ${scheme}: the server's WWW-Authenticate asked for it`;
}
