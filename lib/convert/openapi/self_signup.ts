/**
 * A login that is its own sign-up: the one operation answering the token
 * makes the account it signs in (a TypeSpec todo API's `POST /users`
 * taking `{username, email, password}` and answering
 * `{id, username, email, token}`, with no login beside it). The account is
 * then the run's, made unique per run, never the user's asked in variables:
 * the same account sent again on a second run is refused as existing.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { makesItem } from "./makes_item.ts";
import { namedSignIn, SIGN_UP } from "./sign_words.ts";

/**
 * Whether the login `op` makes the account it signs in, by what the document
 * says: its path or name says it signs up (`/auth/register`), or, not named
 * for signing in, it makes an item with a path of its own (`/accounts` beside
 * `/accounts/{id}`), answers 201 Created, or documents a 409 Conflict (the
 * account exists already), which no sign-in of an existing account answers.
 *
 * @example
 * ```ts
 * import { signsUpItself } from "./self_signup.ts";
 * const op = (template: string, responses: object) => ({ template, name: "", node: { responses } }) as never;
 * if (!signsUpItself({}, op("/users", { 200: {}, 409: {} }))) throw new Error("a 409");
 * if (!signsUpItself({}, op("/auth/register", { 200: {} }))) throw new Error("named");
 * if (signsUpItself({}, op("/login", { 201: {}, 409: {} }))) throw new Error("a sign-in");
 * if (signsUpItself({}, op("/users", { 200: {} }))) throw new Error("no evidence");
 * ```
 */
export function signsUpItself(doc: Node, op: OpenApiOperation): boolean {
  if (SIGN_UP.test(`${op.template} ${op.name}`)) return true;
  if (namedSignIn(op)) return false;
  const codes = Object.keys(isNode(op.node.responses) ? op.node.responses : {});
  return makesItem(doc, op) || codes.includes("201") || codes.includes("409");
}

/**
 * `login` marked `signsUp` when it has no register and makes its own account ({@linkcode signsUpItself}).
 *
 * @example
 * ```ts
 * import { withSelfSignUp } from "./self_signup.ts";
 * const op = { template: "/users", name: "", node: { responses: { 201: {} } } } as never;
 * if (!withSelfSignUp({}, { op }).signsUp || withSelfSignUp({}, { op, register: op }).signsUp) throw new Error();
 * ```
 */
export function withSelfSignUp<T extends { op: OpenApiOperation; register?: OpenApiOperation }>(
  doc: Node,
  login: T,
): T & { signsUp?: boolean } {
  return !login.register && signsUpItself(doc, login.op) ? { ...login, signsUp: true } : login;
}
