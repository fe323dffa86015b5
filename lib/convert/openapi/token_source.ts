/**
 * Where a login's token is read from its answer: apart from login.ts, so that what fills a body
 * from the login's answer (answered_values.ts) reads it without importing the login's inference.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import { capturePath } from "./capture_source.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";
import { bareOrMember } from "./bare_token.ts";

/**
 * Where a login's token is captured from: its path, else the first JSON
 * member named like a token anywhere in the body. A path whose documented
 * value starts with the scheme's word (`schemed`, see schemed_token.ts) is
 * read by its member's name with that word cut off: a JSONPath gives the
 * whole text, and the auth writes the word again. A login whose successes give
 * no media type (`bare`, see bare_token.ts) may answer the token alone: its
 * whole body is taken when it is one word and holds no such member.
 *
 * @example
 * ```ts
 * import { tokenSource } from "./token_source.ts";
 * if (tokenSource({ path: ["user", "token"] }) !== "$.json.user.token") throw new Error();
 * if (typeof tokenSource({}) !== "object") throw new Error();
 * const cut = tokenSource({ path: ["data", "access_token"], schemed: "Bearer" }) as { entries: [string, string][] };
 * if (new RegExp(cut.entries[0][1]).exec('{"data":{"access_token":"Bearer abc"}}')?.[1] !== "abc") throw new Error();
 * ```
 */
export function tokenSource(
  login: { path?: string[]; schemed?: string; bare?: boolean },
): YNode {
  if (login.path && login.schemed) {
    const name = escapeRegExp(login.path.at(-1)!);
    return ymap([["regex", `"${name}"\\s*:\\s*${schemedText(login.schemed)}`]]);
  }
  if (login.path) return capturePath(login.path);
  if (login.bare) return ymap([["regex", bareOrMember(`"(?:${TOKEN_KEYS})"\\s*:\\s*"`)]]);
  return ymap([["regex", `"(?:${TOKEN_KEYS})"\\s*:\\s*${TOKEN_TEXT}`]]);
}

/**
 * Where the summary and a step's comment say the token is read: its path, and
 * the word cut off it when the documented value starts with one.
 *
 * @example
 * ```ts
 * import { tokenWhere } from "./token_source.ts";
 * if (tokenWhere({ path: ["token"] }) !== "$.json.token") throw new Error();
 * const cut = tokenWhere({ path: ["token"], schemed: "Bearer" });
 * if (cut !== '$.json.token less the "Bearer " its documented example starts with') throw new Error();
 * ```
 */
export function tokenWhere(login: { path?: string[]; schemed?: string }): string | undefined {
  if (!login.path) return undefined;
  const at = capturePath(login.path);
  return login.schemed
    ? `${at} less the "${login.schemed} " its documented example starts with`
    : at;
}

/** A JSON string's text after an optional `word` (as documented or in lower case), as group 1. */
function schemedText(word: string): string {
  const words = [...new Set([word, word.toLowerCase()])].join("|");
  return `"(?:(?:${words})\\s+)?([^"]+)"`;
}

/**
 * A token's JSON text, without the scheme word some logins put before it
 * (`{token: "Bearer eyJ…"}`, passport-jwt tutorials): the bearer auth adds
 * its own, and `Bearer Bearer eyJ…` is refused.
 */
export const TOKEN_TEXT = '"(?:[Bb]earer\\s+)?([^"]+)"';

/**
 * The JSON keys a token is found under when the schema does not say; `access` is simplejwt's
 * (`{refresh, access}`), which Django REST framework's generated documents never show.
 */
export const TOKEN_KEYS = "token|access_token|accessToken|jwt|id_token|auth_token|authToken|access";
