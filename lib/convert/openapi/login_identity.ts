/**
 * The identity a sign-up makes its account with is the one its login signs
 * in with. LoopBack 4 writes a body built with `partial: true` as a schema
 * requiring nothing: a task manager's `POST /signup {username, email,
 * password}` beside `POST /users/login {email, password}`. With two text
 * names and no `format: email`, neither was taken for the account's identity,
 * so the sign-up sent a password alone (refused 500: its table holds the
 * email `NOT NULL`), and the login, sending the run's email, found no
 * account. The login's body is the evidence: each member it takes besides
 * the password (those it requires, when it requires any: an optional
 * `callbackURL` is no identity), listed by the sign-up's schema too, is sent
 * by the sign-up, under the run var the login sends for it (`login_account.ts`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";

/**
 * The names of `login`'s JSON body members that are no password (by
 * `isPassword`): the account's identity as the login sends it.
 *
 * @example
 * ```ts
 * import { loginIdentity } from "./login_identity.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { type: "object", properties } } } } });
 * const login = { node: body({ email: {}, password: {} }) } as never;
 * const got = loginIdentity({}, login, (name: string) => name === "password");
 * if ([...got].join() !== "email") throw new Error([...got].join());
 * // A login requiring its members: an optional one (a redirect's URL) is no identity.
 * const strict = { node: { requestBody: { content: { "application/json": { schema: {
 *   type: "object", required: ["email", "password"],
 *   properties: { email: {}, password: {}, callbackURL: {} } } } } } } } as never;
 * if ([...loginIdentity({}, strict, (n: string) => n === "password")].join() !== "email") throw new Error();
 * ```
 */
export function loginIdentity(
  doc: Node,
  login: OpenApiOperation,
  isPassword: (name: string, schema?: Node) => boolean,
): Set<string> {
  const schema = deref(doc, jsonBodySchema(doc, login.node));
  // A login requiring its members sends those alone: better-auth's sign-in lists an optional
  // `callbackURL`, which a sign-up sent the run's user name refused 403 (no trusted origin).
  const required = isNode(schema) && Array.isArray(schema.required) ? schema.required : [];
  const members = properties(doc, schema).filter(([n]) =>
    required.length === 0 || required.includes(n)
  );
  return new Set(members.filter(([n, p]) => !isPassword(n, p)).map(([n]) => n));
}
