/**
 * A sign-up under the document's root security requirement alone. LoopBack
 * 4's JWT example puts `security: [{jwt: []}]` on the whole API and
 * overrides it nowhere, so its `POST /signup` read as needing the login's
 * token: no operation made the account, and the summary asked the user for
 * one. A sign-up makes the account whose token that requirement asks for, so
 * it cannot need it. A sign-up that states its own requirement keeps it:
 * there the author said an account is needed (an admin's register).
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";

/** A path segment that names making an account (`/signup`, `/auth/register`), never `/registries`. */
const SIGN_UP_SEGMENT = /^(sign[-_]?up|register|registration)$/i;

/**
 * Whether `op`'s path names a sign-up and `op` states no security of its own
 * (the caller checks it takes a password).
 *
 * @example
 * ```ts
 * import { inheritedSignUp } from "./inherited_signup.ts";
 * const op = (template: string, node: object = {}) => ({ method: "POST", template, node }) as never;
 * if (!inheritedSignUp(op("/auth/register")) || !inheritedSignUp(op("/signup"))) throw new Error();
 * if (inheritedSignUp(op("/registries")) || inheritedSignUp(op("/signup", { security: [{ jwt: [] }] }))) {
 *   throw new Error();
 * }
 * ```
 */
export function inheritedSignUp(op: OpenApiOperation): boolean {
  return !Array.isArray(op.node.security) &&
    op.template.split("/").some((segment) => SIGN_UP_SEGMENT.test(segment));
}
