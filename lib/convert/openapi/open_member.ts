/**
 * Schemas that name no member: an object with no properties, or an answer's
 * member so (an envelope's open payload, `{code, message, data: {type:
 * object}}`). Apart from `opaque_answer.ts` so that `undescribed_answer.ts`
 * reads them without the producers that read it.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { properties } from "./schema_properties.ts";

const SHAPES = ["allOf", "anyOf", "oneOf", "items", "enum", "$ref"];

/**
 * `additionalProperties: true` (or `{}`) says any member may be there and names none: an object
 * swagger-jsdoc writers mean as "any object" (a school planner's `data` of `POST /seminars`). A
 * schema of them (`{type: string}`) is a map's, and `false` closes the object: both are shapes.
 */
const openToAny = (extra: unknown) =>
  extra === undefined || extra === true || (isNode(extra) && Object.keys(extra).length === 0);

/**
 * Whether `schema` names no member: an object with no `properties` (none, or `{}`), no
 * composition, no items and no additional members.
 *
 * @example
 * ```ts
 * import { namesNoMember } from "./open_member.ts";
 * if (!namesNoMember({}, { type: "object", properties: {} }) || namesNoMember({}, { type: "string" })) throw new Error();
 * if (!namesNoMember({}, { type: "object", additionalProperties: true })) throw new Error();
 * if (namesNoMember({}, { type: "object", additionalProperties: { type: "string" } })) throw new Error();
 * ```
 */
export function namesNoMember(doc: unknown, schema: unknown): boolean {
  const s = deref(doc, schema);
  if (!isNode(s) || (s.type !== undefined && s.type !== "object")) return false;
  if (SHAPES.some((k) => Object.hasOwn(s, k)) || !openToAny(s.additionalProperties)) return false;
  return !isNode(s.properties) || Object.keys(s.properties).length === 0;
}

/**
 * Whether `schema` has a member that says it is an object and names none of its members
 * (`data: {type: object}`): an envelope's open payload. A member of no type (`{}`,
 * `{description}`) may be a bare value, so it is none.
 *
 * @example
 * ```ts
 * import { holdsOpenObject } from "./open_member.ts";
 * if (!holdsOpenObject({}, { properties: { data: { type: "object" } } })) throw new Error();
 * if (holdsOpenObject({}, { properties: { data: { description: "any" } } })) throw new Error();
 * ```
 */
export function holdsOpenObject(doc: unknown, schema: unknown): boolean {
  return properties(doc, schema).some(([, member]) => {
    const m = deref(doc, member);
    return isNode(m) && (m.type === "object" || isNode(m.properties)) && namesNoMember(doc, m);
  });
}
