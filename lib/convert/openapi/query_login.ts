/**
 * A sign-up or sign-in that takes its credentials as query parameters:
 * FastAPI writes `def login(email: EmailStr, password: str)`, with no body
 * model, as a POST with no request body and two required query parameters.
 * Read for a body only, such a POST took no password, was no login, and
 * the document had none (an expense tracker: 2 of 8 operations, every
 * other one 401). Its required query parameters are read as the fields a
 * body would have, when one of them is a password.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { isPasswordField } from "./password_field.ts";

/**
 * The required query parameters of a bodiless POST, as the object schema a body would have,
 * when one is a password.
 *
 * @example
 * ```ts
 * import { queryCredentials } from "./query_login.ts";
 * const q = (name: string) => ({ name, in: "query", required: true, schema: { type: "string" } });
 * const op = { method: "POST", node: { parameters: [q("email"), q("password")] } } as never;
 * const schema = queryCredentials({}, op) as { properties: object };
 * if (Object.keys(schema.properties).join() !== "email,password") throw new Error();
 * if (queryCredentials({}, { method: "POST", node: { parameters: [q("title")] } } as never)) throw new Error();
 * ```
 */
export function queryCredentials(doc: unknown, op: OpenApiOperation): Node | undefined {
  if (op.method !== "POST" || op.node.requestBody !== undefined) return undefined;
  const params = (Array.isArray(op.node.parameters) ? op.node.parameters : [])
    .map((p) => deref(doc, p)).filter(isNode)
    .filter((p) => p.in === "query" && p.required === true && typeof p.name === "string");
  const props = Object.fromEntries(params.map((p) => [p.name as string, p.schema ?? {}]));
  const password = Object.entries(props).some(([n, s]) => isPasswordField(n, isNode(s) ? s : {}));
  return password ? { type: "object", properties: props } : undefined;
}
