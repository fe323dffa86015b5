/**
 * Where a listing holds the value of a parameter of an item nothing
 * creates: the first item of the array the evidence names (see
 * {@linkcode firstItemPath}).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import { deref } from "./examples.ts";
import { plainName } from "./required_props.ts";
import { properties } from "./schema_properties.ts";

/**
 * In a listing's response schema, the path to the parameter's value in the
 * first item: the item itself, else its property of the parameter's name or
 * its `id`. Of an answer of several arrays (`{admins, projects}`), only the
 * one the evidence names: called for the parameter's noun (`projects` for
 * `{projectId}`) or the collection's (`boards` for `/boards/{id}`), else
 * whose items hold the parameter's name (not `id`, which every list holds); else none.
 * `namedOnly`: only the array named for the collection (an item's read, not a listing).
 *
 * @example
 * ```ts
 * import { firstItemPath } from "./listing_values.ts";
 * const list = (props: object) => ({ type: "array", items: { properties: props } });
 * const schema = { properties: { admins: list({ id: {} }), projects: list({ id: {} }) } };
 * if (firstItemPath({}, schema, "projectId", "dashboard")?.join(".") !== "projects.0.id") throw new Error();
 * if (firstItemPath({}, schema, "boardKey", "boards") !== undefined) throw new Error();
 * ```
 */
export function firstItemPath(
  doc: unknown,
  schema: unknown,
  param: string,
  collection: string,
  namedOnly = false,
): string[] | undefined {
  const s = deref(doc, schema);
  const lists: [string[], unknown][] = isNode(s) && s.type === "array"
    ? [[[], s.items]]
    : properties(doc, s).filter(([, p]) => p.type === "array").map(([n, p]) => [[n], p.items]);
  const value = (path: string[], items: unknown) => itemValue(doc, path, items, param);
  if (lists.length === 1 && !namedOnly) return value(...lists[0]);
  const plain = plainName(param);
  const nouns = [plain !== "id" && plain.endsWith("id") ? plain.slice(0, -2) : "", collection]
    .filter((n) => n !== "").map((n) => plainName(singular(n)));
  // A list at the top has no name.
  const named = lists.find(([path]) =>
    path.length > 0 && nouns.includes(plainName(singular(path[0])))
  );
  if (named || namedOnly) return named && value(...named);
  // `id` names no thing: every list of things holds one.
  const holding = plain !== "id" &&
    lists.find(([, items]) => properties(doc, items).some(([n]) => plainName(n) === plain));
  return holding ? value(...holding) : undefined;
}

/** The path to the parameter's value in a list's first item (see {@linkcode firstItemPath}). */
function itemValue(
  doc: unknown,
  path: string[],
  items: unknown,
  param: string,
): string[] | undefined {
  const item = deref(doc, items);
  if (!isNode(item)) return undefined;
  if (item.type === "string" || item.type === "integer") return [...path, "0"];
  const names = properties(doc, item).map(([n]) => n);
  const prop = names.find((n) => plainName(n) === plainName(param)) ??
    names.find((n) => n === "id");
  return prop ? [...path, "0", prop] : undefined;
}

/**
 * Whether the document gives a parameter a value: its example(s), its schema's example, default or enum.
 *
 * @example
 * ```ts
 * import { hasExample } from "./listing_values.ts";
 * if (!hasExample({}, { schema: { enum: ["a"] } }) || hasExample({}, { schema: {} })) throw new Error();
 * ```
 */
export function hasExample(doc: unknown, p: Node): boolean {
  const schema = deref(doc, p.schema);
  const s = isNode(schema) ? schema : {};
  return p.example !== undefined || isNode(p.examples) || s.example !== undefined ||
    s.default !== undefined || Array.isArray(s.enum) || Array.isArray(s.examples);
}
