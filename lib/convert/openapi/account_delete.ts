/**
 * The DELETE of the account a flow is signed in as: a path of no parameter
 * (no item the flow made, so the credential says which) whose GET answers
 * what the login sends to name the account (its `email`, its `username`),
 * as a NestJS boilerplate's `DELETE /api/v1/auth/me` beside `GET
 * /api/v1/auth/me`. It removes the account every later step of the flow
 * signs in as and names: run among the deletes, it came before the actions
 * on the whole API that need it, and the password-forgot that sends the
 * account's email was answered 422 (`emailNotExists`). It runs last.
 * So does a DELETE of no parameter at the path the account was signed up
 * at (a FastAPI blog's `DELETE /users/` beside its sign-up `POST /users/`,
 * with no `GET /users/` to compare: run on the account every flow shares,
 * it removed it under the others, whose blogs were then listed with no
 * creator, 500).
 * So does the DELETE of an item of the account's own shape, which
 * `own_read.ts` fills with the account's id (`DELETE /users/{id}`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { bodyFields, type Login } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { deletesOwnItem } from "./own_item_link.ts";
import { findProperty, plainName, responseSchemas } from "./producers.ts";
import { documentPath } from "./fixed_segment.ts";

/**
 * Whether `op` deletes the account the login signs in as (see the module);
 * the caller checks that `op` is signed in with the login's token.
 *
 * @example
 * ```ts
 * import { deletesAccount } from "./account_delete.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const text = { type: "string" };
 * const doc = { paths: {
 *   "/login": { post: { requestBody: json({ email: text, password: text }) } },
 *   "/me": { get: { responses: { "200": json({ id: text, email: text }) } }, delete: {} },
 *   "/cache": { get: { responses: { "200": json({ size: text }) } }, delete: {} },
 * } };
 * const ops = operationsOf(doc);
 * const login = { op: ops[0], schemes: new Map() };
 * if (!deletesAccount(doc, ops[2], login) || deletesAccount(doc, ops[4], login)) {
 *   throw new Error();
 * }
 * ```
 */
export function deletesAccount(
  doc: Node,
  op: OpenApiOperation,
  login: Login,
): boolean {
  if (op.method !== "DELETE") return false;
  if (op.template.includes("{")) return deletesOwnItem(doc, op, login);
  // At the path the account was signed up at (FastAPI's `POST /users/` and `DELETE /users/`,
  // "Deletes current user"), no parameter naming another: the credential says which.
  if (login.register?.template === op.template) return true;
  const item = isNode(doc.paths) ? doc.paths[documentPath(op)] : undefined;
  if (!isNode(item) || !isNode(item.get)) return false;
  const read = { ...op, method: "GET", node: item.get };
  const names = bodyFields(doc, login.op);
  names.delete("\0password");
  if (names.size === 0) return false;
  return responseSchemas(doc, read).some((schema) =>
    findProperty(doc, schema, (name) => names.has(plainName(name))) !== undefined
  );
}
