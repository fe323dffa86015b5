/**
 * An answer a document describes by a schema that names no member: an
 * object with no `properties` (none, or `{}`), no composition, no items and
 * no additional members. Such a schema says nothing of the body, neither
 * that it holds a token nor that it holds none, as an answer with no schema
 * says nothing. Plumier's `@plumier/swagger` documents its tutorial's `POST
 * /api/v1/auth/login`, an `async` method returning `{token}`, as the
 * `Promise` it reflects: `{type: "object", properties: {}}`. Read as
 * describing an answer without a token, the login was no login, and the
 * summary asked for `API_TOKEN`.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./producers.ts";

const SHAPES = ["allOf", "anyOf", "oneOf", "items", "additionalProperties", "enum", "$ref"];

/** Whether `schema` names no member (see the module doc). */
function namesNoMember(doc: unknown, schema: unknown): boolean {
  const s = deref(doc, schema);
  if (!isNode(s) || (s.type !== undefined && s.type !== "object")) return false;
  if (SHAPES.some((k) => Object.hasOwn(s, k))) return false;
  return !isNode(s.properties) || Object.keys(s.properties).length === 0;
}

/**
 * Whether `op`'s successes describe no member of their bodies: no schema, or only schemas that
 * name none (see the module doc).
 *
 * @example
 * ```ts
 * import { describesNoMember } from "./opaque_answer.ts";
 * const op = (schema: unknown) => ({ node: { responses: { "200": { content: { "application/json": { schema } } } } } }) as never;
 * if (!describesNoMember({}, op({ type: "object", properties: {} }))) throw new Error();
 * if (describesNoMember({}, op({ type: "object", properties: { token: { type: "string" } } }))) throw new Error();
 * if (!describesNoMember({}, { node: { responses: { "200": { description: "OK" } } } } as never)) throw new Error();
 * ```
 */
export function describesNoMember(doc: unknown, op: OpenApiOperation): boolean {
  return responseSchemas(doc, op).every((s) => namesNoMember(doc, s));
}
