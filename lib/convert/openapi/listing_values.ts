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
import { memberNamed, namesMemberOf } from "./member_named.ts";

/**
 * In a listing's response schema, the path to the parameter's value in the
 * first item: the item itself, else its property of the parameter's name or
 * its `id`. Of an answer of several arrays (`{admins, projects}`), only the
 * one the evidence names: called for the parameter's noun (`projects` for
 * `{projectId}`) or the collection's (`boards` for `/boards/{id}`), else
 * whose items hold the parameter's name (not `id`, which every list holds); else none.
 * `namedOnly`: only the array named for the collection (an item's read, not a listing).
 * `enveloped`: when the answer holds no array, those of its one object member (JSend's `data`).
 *
 * @example
 * ```ts
 * import { firstItemPath } from "./listing_values.ts";
 * const list = (props: object) => ({ type: "array", items: { properties: props } });
 * const schema = { properties: { admins: list({ id: {} }), projects: list({ id: {} }) } };
 * if (firstItemPath({}, schema, "projectId", "dashboard")?.join(".") !== "projects.0.id") throw new Error();
 * if (firstItemPath({}, schema, "boardKey", "boards") !== undefined) throw new Error();
 * const jsend = { properties: { status: {}, data: { properties: {
 *   result: { type: "array", items: {} }, brands: list({ id: {} }) } } } };
 * if (firstItemPath({}, jsend, "id", "brands", false, true)?.join(".") !== "data.brands.0.id") throw new Error();
 * if (firstItemPath({}, jsend, "id", "brands") !== undefined) throw new Error();
 * ```
 */
export function firstItemPath(
  doc: unknown,
  schema: unknown,
  param: string,
  collection: string,
  namedOnly = false,
  enveloped = false,
): string[] | undefined {
  const s = deref(doc, schema);
  const lists: [string[], unknown][] = isNode(s) && s.type === "array"
    ? [[[], s.items]]
    : arraysIn(doc, s, enveloped ? [] : undefined);
  const value = (path: string[], items: unknown) => itemValue(doc, path, items, param);
  if (lists.length === 1 && !namedOnly) return value(...lists[0]);
  const plain = plainName(param);
  const nouns = [plain !== "id" && plain.endsWith("id") ? plain.slice(0, -2) : "", collection]
    .filter((n) => n !== "").map((n) => plainName(singular(n)));
  // A list at the top has no name; one in an envelope is named by its own member.
  const named = lists.find(([path]) =>
    path.length > 0 && nouns.includes(plainName(singular(path.at(-1) ?? "")))
  );
  if (named || namedOnly) return named && value(...named);
  // `id` names no thing: every list of things holds one.
  const holding = plain !== "id" &&
    lists.find(([, items]) => properties(doc, items).some(([n]) => plainName(n) === plain));
  return holding ? value(...holding) : undefined;
}

/**
 * The arrays among an answer's members, each with its path; with `at`
 * given and the answer holding none, those of its one object member that
 * holds any: an envelope (JSend's `{status, data: {result, brands: [...]}}`,
 * as the `jsend` middleware answers; HAL's `_embedded.items`), never deeper.
 */
function arraysIn(doc: unknown, s: unknown, at?: string[]): [string[], unknown][] {
  const members = properties(doc, s);
  const own = members.filter(([, p]) => p.type === "array")
    .map(([n, p]): [string[], unknown] => [[...at ?? [], n], p.items]);
  // `at` undefined: the answer's own members only; `[]`: an envelope's too when it has none.
  if (own.length > 0 || at === undefined || at.length > 0) return own;
  const inner = members.filter(([, p]) => p.type === "object" || isNode(p.properties))
    .map(([n, p]) => arraysIn(doc, p, [n])).filter((found) => found.length > 0);
  return inner.length === 1 ? inner[0] : [];
}

/**
 * The path to the parameter's value in a list's first item (see
 * {@linkcode firstItemPath}): its property of the parameter's name, else
 * the id inside an object named for the parameter's noun (a row wrapping the
 * item, a membership wrapping its account), else `id`, else a scalar named
 * for the parameter's noun; else none.
 */
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
  // With no `id`, an item is keyed by the property named for its thing (`collection` of `{collectionId}`).
  const noun = plainName(param).replace(/(.)id$/, "$1");
  // `{pluginName}` is held by the item's `name`, before its `id` (member_named.ts).
  const member = memberNamed(param)?.member;
  const prop = names.find((n) => plainName(n) === plainName(param)) ??
    names.find((n) => member !== undefined && plainName(n) === member);
  if (prop) return [...path, "0", prop];
  const named = properties(doc, item).find(([n]) => plainName(n) === noun);
  // An object named for the parameter's noun is what the parameter names, before the item's
  // own `id`, the wrapper's: a membership `{id, joinedAt, member: {id}}` of `{member_id}`.
  const wrapped = named && wrappedId(doc, named, param);
  if (wrapped) return [...path, "0", ...wrapped];
  if (names.includes("id")) return [...path, "0", "id"];
  // A scalar named for the thing keys an item with no `id` (`collection` of `{collectionId}`).
  return named && properties(doc, named[1]).length === 0 ? [...path, "0", named[0]] : undefined;
}

/**
 * The id inside an item's member named for the parameter's noun, when that member is an
 * object: a row wrapping the item under its model's name (FastAPI's `[{Blog: {..}, votes}]`
 * of a SQLAlchemy `select(Blog, count)`), a membership holding its account.
 */
function wrappedId(doc: unknown, named: [string, Node], param: string): string[] | undefined {
  const inner = properties(doc, named[1]);
  const id = inner.find(([n]) => plainName(n) === plainName(param)) ??
    inner.find(([n]) => n === "id");
  return id && [named[0], id[0]];
}

/**
 * The listing of another collection a path parameter is named for:
 * `/collections` for `{collection}` of `/fields/{collection}` (or
 * `{collectionId}`), when the segment before the parameter names some other
 * thing (`fields`) and exactly one listing (a path of no parameter, its
 * last segment the parameter's noun) is among `listings`. The parameter
 * then refers to an item of that collection: a POST at its path makes
 * something inside that item (a field), not the item itself. A parameter
 * named for a collection and a member of its items (`{pluginName}` of
 * `/config-editor/plugin/{pluginName}`, member_named.ts) names the one
 * plural listing of that noun (`/plugins`) when none is of its whole name.
 *
 * @example
 * ```ts
 * import { namedListing } from "./listing_values.ts";
 * const lists = ["/collections", "/fields"];
 * if (namedListing("/fields/{collection}", "collection", lists) !== "/collections") throw new Error();
 * if (namedListing("/collections/{collection}", "collection", lists) !== undefined) throw new Error();
 * if (namedListing("/x/plugin/{pluginName}", "pluginName", ["/plugins"]) !== "/plugins") throw new Error();
 * if (namedListing("/apps/{app_slug}", "app_slug", ["/app"]) !== undefined) throw new Error();
 * ```
 */
export function namedListing(
  template: string,
  param: string,
  listings: Iterable<string>,
): string | undefined {
  const noun = (name: string) => plainName(singular(name)).replace(/(.)id$/, "$1");
  const before = template.slice(0, template.indexOf(`/{${param}}`)).split("/").at(-1) ?? "";
  const own = noun(param);
  if (before === "" || before.startsWith("{") || noun(before) === own) return undefined;
  const paths = [...listings];
  // `{pluginName}` names the plugins' listing by its noun, and the member it reads (member_named.ts);
  // under its own listing (`/plugins/{pluginName}`) it is that one's, as any item's.
  const prefix = template.slice(0, template.indexOf(`/{${param}}`));
  if (namesMemberOf(param, before) && paths.includes(prefix)) return undefined;
  const named = (fits: (segment: string) => boolean) =>
    paths.filter((path) => !path.includes("{") && fits(path.split("/").at(-1) ?? ""));
  const found = named((segment) => noun(segment) === own);
  // Only a plural names a listing: `GET /app` is one app, whatever array it holds.
  const byMember = found.length === 0
    ? named((segment) => singular(segment) !== segment && namesMemberOf(param, segment))
    : [];
  const all = found.length > 0 ? found : byMember;
  return all.length === 1 ? all[0] : undefined;
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
