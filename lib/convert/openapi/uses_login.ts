/**
 * Whether an operation is signed in with the login's token or session. Its
 * own module so that what `prerequisites.ts` reads (`account_delete.ts`,
 * `own_read.ts`) may ask it too without an import cycle.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { Login } from "./login.ts";
import { loginAlternative } from "./login_alternative.ts";

/**
 * Whether an operation's security alternative, its first or one the login serves
 * (login_alternative.ts), names a scheme the login's token serves.
 *
 * @example
 * ```ts
 * import { usesLogin } from "./uses_login.ts";
 * const login = { op: { node: {} }, schemes: new Map([["jwt", { bearer: true, prefix: "", where: "http bearer" }]]) };
 * if (!usesLogin({ security: [{ jwt: [] }] }, {}, login as never) || usesLogin({ security: [] }, {}, login as never)) {
 *   throw new Error();
 * }
 * ```
 */
export function usesLogin(node: Node, doc: Node, login: Login | undefined): boolean {
  if (!login) return false;
  // A session's login lets in all but itself and its sign-up (session_login.ts).
  if (login.session) return node !== login.op.node && node !== login.register?.node;
  // Nor do a token's login and its sign-ups need it, whatever they declare (login.ts's
  // handsOutToken): the second sign-up runs before the login (second_signup.ts), and sent the
  // login's token it read a later step and the flow did not load.
  if ([login.op, login.register, login.alternate].some((op) => op?.node === node)) return false;
  const security = Array.isArray(node.security) ? node.security : doc.security;
  // Of "any one of these", the one the login serves (login_alternative.ts).
  const options = Array.isArray(security) ? security.filter(isNode) : [];
  const first = loginAlternative(options, new Set(login.schemes.keys()));
  return first !== undefined && Object.keys(first).some((name) => login.schemes.has(name));
}
