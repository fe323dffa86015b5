/**
 * A member a schema declares as a plain value (`data: {type: string}`) while the same schema's
 * own `example` shows an object or a list there, read by the example's shape. A Hapi social API
 * documents each answer as one Joi envelope, `{statusCode, message, data}` with `data` a Joi
 * string, and gives each its `example`: `{…, data: {user: {id, …}}}`. Read by its declared type,
 * the create's answer held no id, and each read, update and delete of a made item asked for a
 * placeholder. The example is the producer's own statement of the answer, written beside the type
 * it contradicts; where they agree, or the member is a `$ref` or a composition, the schema is kept
 * as written. Only the converter reads the rewritten document: a run's `openapi:` checks read the
 * document as it is.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { rewriteNodes } from "./node_rewrite.ts";

/** How deep a shape read from an example goes; documents nest far less. */
const MAX_DEPTH = 64;

/** The types a member declared as one plain value has. */
const PLAIN = new Set(["string", "number", "integer", "boolean"]);

/** The schema a value an example shows has: its type, members and first item, with the value. */
function shapeOf(value: unknown, depth: number): Node {
  if (depth > MAX_DEPTH || value === null || value === undefined) return {};
  if (Array.isArray(value)) {
    return value.length === 0 ? { type: "array" } : {
      type: "array",
      items: shapeOf(value[0], depth + 1),
    };
  }
  if (isNode(value)) {
    const members = Object.entries(value).map(([k, v]) => [k, shapeOf(v, depth + 1)]);
    return { type: "object", properties: Object.fromEntries(members) };
  }
  if (typeof value === "number") {
    return { type: Number.isInteger(value) ? "integer" : "number", example: value };
  }
  return { type: typeof value, example: value };
}

/** Whether `member`, declared one plain value, is shown an object or a list by `shown`. */
function contradicted(member: unknown, shown: unknown): member is Node {
  if (!isNode(member) || "$ref" in member || typeof member.type !== "string") return false;
  if (!PLAIN.has(member.type)) return false;
  return Array.isArray(shown) || isNode(shown);
}

/** `s`'s members its own example shows otherwise than declared, by the example's shape. */
function withShownMembers(s: Node): Node {
  const props = s.properties;
  const example = s.example;
  if (!isNode(props) || !isNode(example)) return s;
  const changed = Object.entries(props).filter(([name, member]) =>
    contradicted(member, example[name])
  );
  if (changed.length === 0) return s;
  const members = { ...props };
  for (const [name, member] of changed) {
    const said = isNode(member) ? member.description : undefined;
    const keep = typeof said === "string" ? { description: said } : {};
    members[name] = { ...shapeOf(example[name], 0), ...keep };
  }
  return { ...s, properties: members };
}

/**
 * `doc` with each schema's members its own `example` shows as an object or a list where it
 * declares one plain value read by the example's shape (see the module doc); `doc` itself when
 * there is none.
 *
 * @example
 * ```ts
 * import { withExampledShapes } from "./exampled_shape.ts";
 * const schema = {
 *   example: { data: { user: { id: "u1" } } },
 *   properties: { data: { type: "string" } },
 * };
 * const out = withExampledShapes({ components: { schemas: { Answer: schema } } });
 * const data = (out.components.schemas.Answer.properties as Record<string, any>).data;
 * if (data.properties.user.properties.id.type !== "string") throw new Error();
 * const agreeing = { example: { data: "x" }, properties: { data: { type: "string" } } };
 * if (withExampledShapes(agreeing) !== agreeing) throw new Error();
 * ```
 */
export function withExampledShapes<T>(doc: T): T {
  return rewriteNodes(doc, withShownMembers);
}
