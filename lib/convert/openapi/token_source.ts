/**
 * Where a login's token is read from its answer: apart from login.ts, so that what fills a body
 * from the login's answer (answered_values.ts) reads it without importing the login's inference.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import { capturePath } from "./capture_source.ts";

/**
 * Where a login's token is captured from: its path, else the first JSON
 * member named like a token anywhere in the body.
 *
 * @example
 * ```ts
 * import { tokenSource } from "./token_source.ts";
 * if (tokenSource({ path: ["user", "token"] }) !== "$.json.user.token") throw new Error();
 * if (typeof tokenSource({}) !== "object") throw new Error();
 * ```
 */
export function tokenSource(login: { path?: string[] }): YNode {
  if (login.path) return capturePath(login.path);
  return ymap([["regex", `"(?:${TOKEN_KEYS})"\\s*:\\s*${TOKEN_TEXT}`]]);
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
