/**
 * The writes whose request body the document promises but describes none of:
 * every media type's schema is an object that names no member (no
 * `properties`, no `required`, no `additionalProperties` schema, no
 * composition) and no example is given. NestJS's `@nestjs/swagger` writes
 * `{type: object, properties: {}}` for a `@Body()` class none of whose
 * members carries `@ApiProperty` (a NestJS 9 API measured by hand had four
 * such bodies: a role's create, a post's create, a user's ban and role), and
 * nothing else (no title, no description: see `namesNoMember`), so
 * the step sends `{}` and the server answers 400, 422 or 500 for the members
 * it reads. Nothing in the document says what they are; the summary names
 * each such operation, whatever its method or path, since the document itself
 * says a body is sent (unlike a write with no request body at all,
 * `bodiless.ts`, where an action needs none).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * `METHOD /template` of each operation of `ops` whose request body names no member.
 *
 * @example
 * ```ts
 * import { undescribedBodies } from "./undescribed_body.ts";
 * const body = (schema: object) => ({ requestBody: { content: { "application/json": { schema } } } });
 * const op = (method: string, template: string, node: object) =>
 *   ({ method, template, node, params: [] }) as never;
 * const ops = [
 *   op("POST", "/roles", body({ type: "object", properties: {} })),
 *   op("POST", "/users/ban", body({ $ref: "#/components/schemas/Ban" })),
 *   op("POST", "/notes", body({ type: "object", properties: { text: { type: "string" } } })),
 *   op("PUT", "/labels", body({ type: "object", additionalProperties: { type: "string" } })),
 *   op("POST", "/logout", {}),
 * ];
 * const doc = { components: { schemas: { Ban: { type: "object", properties: {} } } } };
 * if (undescribedBodies(doc, ops).join() !== "POST /roles,POST /users/ban") throw new Error();
 * ```
 */
export function undescribedBodies(doc: Node, ops: OpenApiOperation[]): string[] {
  return ops.filter((op) => {
    if (op.method === "GET" || op.method === "HEAD") return false;
    const body = deref(doc, op.node.requestBody);
    const content = isNode(body) && isNode(body.content) ? body.content : undefined;
    // A JSON or form body: a stream or a file of no schema is another matter (`body_file`).
    const media = Object.entries(content ?? {}).filter(([type]) => /json|form/i.test(type))
      .map(([, m]) => deref(doc, m));
    return media.length > 0 && media.every((m) => isNode(m) && namesNoMember(doc, m));
  }).map((op) => `${op.method} ${op.template}`);
}

/**
 * Whether a media type object gives no example and a schema of an object with no member that
 * says nothing else either. A schema with a title or a description was written to be empty (a
 * protobuf request message of no field, "Request message for …Cancel"; an AWS shape of no
 * member, titled with its name): such an operation takes `{}`. A generator that could not read a
 * class's members writes nothing but `type` and an empty `properties`.
 */
function namesNoMember(doc: unknown, media: Node): boolean {
  if (media.example !== undefined || media.examples !== undefined) return false;
  const schema = deref(doc, media.schema);
  if (!isNode(schema)) return false;
  // A bare `{}` (any JSON) is no object the document describes: it may be a string or a list.
  if (schema.type !== "object" && !isNode(schema.properties)) return false;
  const empty = (v: unknown) =>
    v === true || (Array.isArray(v) && v.length === 0) ||
    (isNode(v) && Object.keys(v).length === 0);
  return Object.entries(schema).every(([key, value]) =>
    key === "type" || (EMPTIED.has(key) && empty(value))
  );
}

/** The keys an object schema may hold empty (`properties: {}`, `required: []`) and name no member. */
const EMPTIED = new Set(["properties", "required", "additionalProperties"]);
