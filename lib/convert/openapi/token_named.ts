/**
 * A request body member named `token` is the login's token: the only token the material names is
 * the one its login answers. simplejwt under djoser's names (`POST /jwt/create/` answering
 * `{refresh, access}`, `POST /jwt/verify/` taking `{token}`) refused the made-up `token-…` 401.
 * Only that exact name: `code`, `otp` or a reset's `reset_token` name something the server sends
 * elsewhere (a mail), which the login's answer is not.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import { tokenSource } from "./token_source.ts";

/**
 * Where the login's answer holds the token a body member `key` sends, when `key` is `token`.
 *
 * @example
 * ```ts
 * import { namedToken } from "./token_named.ts";
 * if (namedToken({ path: ["access"] }, "token") !== "$.json.access") throw new Error();
 * if (namedToken({ path: ["access"] }, "code") !== undefined) throw new Error();
 * ```
 */
export function namedToken(login: { path?: string[] }, key: string): YNode | undefined {
  return key === "token" ? tokenSource(login) : undefined;
}
