/**
 * A map in a request: an object that declares no properties but what each entry holds
 * (`additionalProperties: {schema}`) is sent with one entry, not empty. A map is there to say
 * something: Alertmanager's alerts were sent `"labels": {}` and refused ("at least one label pair
 * required", 400). The entry's key is `key`, a name any label, tag or header syntax takes; its
 * value is made from the entry's schema. A map whose entries are free (`true`, `{}`, none)
 * stays empty: nothing says what an entry holds.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** The key of the one entry made for a map. */
const KEY = "key";

/**
 * One entry for map schema `s`, its value from `make(entry schema)`; undefined when `s` is no
 * map of a said entry (see the module) or no value can be made.
 *
 * @example
 * ```ts
 * import { mapEntry } from "./map_entry.ts";
 * const make = (s: unknown) => (s as { type: string }).type === "integer" ? 1 : "string";
 * const labels = { type: "object", additionalProperties: { type: "string" } };
 * if (mapEntry(labels, make)?.key !== "string") throw new Error();
 * if (mapEntry({ type: "object", additionalProperties: true }, make) !== undefined) throw new Error();
 * if (mapEntry({ properties: { a: {} }, additionalProperties: { type: "integer" } }, make)) {
 *   throw new Error();
 * }
 * ```
 */
export function mapEntry(s: Node, make: (entry: unknown) => unknown): Node | undefined {
  const entry = s.additionalProperties;
  if (!isNode(entry) || Object.keys(entry).length === 0 || s.maxProperties === 0) return undefined;
  if (isNode(s.properties) && Object.keys(s.properties).length > 0) return undefined;
  const value = make(entry);
  return value === undefined ? undefined : { [KEY]: value };
}
