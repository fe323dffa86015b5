/**
 * A PATCH's JSON body that would be `{}`: its schema requires nothing and
 * the document gives no example (LoopBack's `UserPartial`), so nothing
 * was sent to change, and LoopBack refuses an update of nothing (400
 * "Data is required for the patch request"). It sends the schema's first
 * text property that is not read-only instead: a number may be the item's
 * id, a switch would change what the item does.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";

/**
 * `value`, or when it is an empty object, `{[first text property]: its
 * example}` of `schema` (when it has one).
 *
 * @example
 * ```ts
 * import { somethingToPatch } from "./patch_body.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { type: "object", properties: { id: { type: "number" }, name: { type: "string" } } };
 * const got = somethingToPatch({}, new ExampleMaker({}), schema, {}) as Record<string, unknown>;
 * if (Object.keys(got).join() !== "name") throw new Error();
 * const kept = somethingToPatch({}, new ExampleMaker({}), schema, { id: 1 });
 * if (JSON.stringify(kept) !== '{"id":1}') throw new Error();
 * ```
 */
export function somethingToPatch(
  doc: unknown,
  maker: ExampleMaker,
  schema: unknown,
  value: unknown,
): unknown {
  if (!isNode(value) || Object.keys(value).length > 0) return value;
  const s = deref(doc, schema);
  const properties = isNode(s) && isNode(s.properties) ? s.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    const p = deref(doc, property);
    if (isNode(p) && p.type === "string" && p.readOnly !== true) {
      return { [name]: maker.make(p) ?? "string" };
    }
  }
  return value;
}
