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
 * An envelope whose payload names no member says as little: a course's tasks API answers its
 * `POST /authenticate` with `{code, message, data}`, `data` an object of no members, and puts
 * `{id, email, token}` in it at run time.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./producers.ts";
import { properties } from "./schema_properties.ts";
import { namesNoMember } from "./open_member.ts";

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

/**
 * Whether a success of `op` is an envelope holding a member that names none of its own (`{code,
 * message, data: {type: object}}`): where that member's contents are, nothing is said.
 *
 * @example
 * ```ts
 * import { wrapsOpaqueMember } from "./opaque_answer.ts";
 * const op = (schema: unknown) => ({ node: { responses: { "200": { content: { "application/json": { schema } } } } } }) as never;
 * if (!wrapsOpaqueMember({}, op({ properties: { code: { type: "integer" }, data: { type: "object" } } }))) throw new Error();
 * if (wrapsOpaqueMember({}, op({ properties: { data: { properties: { id: {} } } } }))) throw new Error();
 * ```
 */
export function wrapsOpaqueMember(doc: unknown, op: OpenApiOperation): boolean {
  return responseSchemas(doc, op).some((s) => holdsOpenMember(doc, s));
}

/**
 * Whether `schema` has a member that names none of its own (`data: {type: object}`).
 *
 * @example
 * ```ts
 * import { holdsOpenMember } from "./opaque_answer.ts";
 * if (!holdsOpenMember({}, { properties: { data: {} } }) || holdsOpenMember({}, { properties: { id: { type: "string" } } })) throw new Error();
 * ```
 */
export function holdsOpenMember(doc: unknown, schema: unknown): boolean {
  return properties(doc, schema).some(([, member]) => namesNoMember(doc, member));
}
