/**
 * A PATCH's JSON body that would be `{}`: its schema requires nothing and
 * the document gives no example (LoopBack's `UserPartial`), so nothing
 * was sent to change, and LoopBack refuses an update of nothing (400
 * "Data is required for the patch request"). It sends the schema's first
 * text property that is not read-only instead, and not named as an
 * identifier when another is (LoopBack 4's `custId`, the key, which its
 * PostgreSQL connector leaves out of the SET: 500), nor a key a path names
 * the item by (`email` of `/users/{email}/…`: `keys`): a number may be the
 * item's id, a switch would change what the item does. So does a member the body
 * requires that came out `{}`, in a PUT too (RealWorld's
 * `{"user": {}}`: the document requires the member, and its real backend
 * answers an update of no column with 500). A PUT that is its item's
 * only update (no PATCH on its path: a Hono backend's `{name?, done?}`,
 * whose ORM answers an update of nothing with 500 "No values to set")
 * updates as a PATCH does; beside a PATCH, a PUT replaces, and a schema
 * requiring nothing is replaced with `{}`. An update whose every member
 * would be its schema's `default`, which the item already holds unless its
 * create said otherwise (a Hapi to-do's `state: INCOMPLETE`, refused 400
 * "Redundant update to same state."), sends its first member as an enum's
 * first other value, else a text made as if no default were written.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { isOneItemPath } from "./one_item_path.ts";

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
  keys: ReadonlySet<string> = new Set(),
): unknown {
  if (!isNode(value) || Object.keys(value).length > 0) return value;
  const s = deref(doc, schema);
  const properties = isNode(s) && isNode(s.properties) ? s.properties : {};
  const texts = Object.entries(properties).map(([name, p]) => [name, deref(doc, p)] as const)
    .filter(([, p]) => isNode(p) && p.type === "string" && p.readOnly !== true);
  // A text named as an identifier (LoopBack 4's `custId`) is the item's key or a link: the
  // key is never set (an update of nothing, 500 on PostgreSQL), a link needs a real target.
  // Nor a member a path names the item by (`/users/{email}/…`: item_key.ts), its key too.
  const free = texts.filter(([n]) => !keys.has(n));
  const [name, p] = free.find(([n]) => !IDENTIFIER.test(n)) ?? free[0] ?? texts[0] ?? [];
  return name === undefined ? value : { [name]: maker.make(p) ?? "string" };
}

/**
 * `value`, or when each of its members is its schema's `default` (an update
 * of nothing: the item holds the default unless its create said otherwise),
 * with its first member given an enum's first other value, else a value
 * made as if no default were written.
 */
function offDefault(doc: unknown, maker: ExampleMaker, schema: unknown, value: unknown): unknown {
  const s = deref(doc, schema);
  const properties = isNode(s) && isNode(s.properties) ? s.properties : {};
  if (!isNode(value) || Object.keys(value).length === 0) return value;
  const at = (name: string) => deref(doc, properties[name]);
  const isDefault = (name: string) => {
    const p = at(name);
    return isNode(p) && p.default !== undefined && value[name] === p.default;
  };
  const [first, ...rest] = Object.keys(value);
  const p = at(first);
  if (!isNode(p) || !isDefault(first) || !rest.every(isDefault)) return value;
  const { default: was, ...written } = p;
  const other = Array.isArray(p.enum) ? p.enum.find((v) => v !== was) : undefined;
  return { ...value, [first]: other ?? maker.make(written) ?? value[first] };
}

/**
 * A member named as an identifier (`id`, `custId`, `user_id`, `orderID`).
 *
 * @example
 * ```ts
 * import { IDENTIFIER } from "./patch_body.ts";
 * if (!IDENTIFIER.test("custId") || IDENTIFIER.test("status") || IDENTIFIER.test("commandid")) throw new Error();
 * ```
 */
export const IDENTIFIER = /^id$|[a-z0-9]Id$|_id$|ID$/;

/**
 * The body of a `method` request, given something to change: for a PATCH
 * or PUT, each member the schema requires that came out `{}` holds its
 * first text property ({@linkcode somethingToPatch}, at any depth), and
 * for a PATCH, or a PUT that is the item's only update (`soleUpdate`),
 * the whole body too (a PUT beside a PATCH replaces, with nothing when its
 * schema requires nothing).
 *
 * @example
 * ```ts
 * import { somethingToUpdate } from "./patch_body.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const user = { type: "object", properties: { bio: { type: "string" } } };
 * const schema = { type: "object", required: ["user"], properties: { user } };
 * const got = somethingToUpdate({}, new ExampleMaker({}), "PUT", schema, { user: {} });
 * if (JSON.stringify(got) !== '{"user":{"bio":"string"}}') throw new Error(JSON.stringify(got));
 * if (JSON.stringify(somethingToUpdate({}, new ExampleMaker({}), "PUT", user, {})) !== "{}") {
 *   throw new Error();
 * }
 * const sole = somethingToUpdate({}, new ExampleMaker({}), "PUT", user, {}, true);
 * if (JSON.stringify(sole) !== '{"bio":"string"}') throw new Error(JSON.stringify(sole));
 * ```
 */
export function somethingToUpdate(
  doc: unknown,
  maker: ExampleMaker,
  method: string | undefined,
  schema: unknown,
  value: unknown,
  soleUpdate = false,
  keys: ReadonlySet<string> = new Set(),
): unknown {
  if (method !== "PATCH" && method !== "PUT") return value;
  const filled = inRequired(doc, maker, schema, value);
  const patch = method === "PATCH" || soleUpdate;
  return patch
    ? offDefault(doc, maker, schema, somethingToPatch(doc, maker, schema, filled, keys))
    : filled;
}

/**
 * Whether the PUT of `template` is its item's only update: the path is an
 * item's (its last segment a parameter, or one item by what it reads:
 * `one_item_path.ts`) and has no PATCH beside the PUT.
 *
 * @example
 * ```ts
 * import { isSoleUpdate } from "./patch_body.ts";
 * const doc = { paths: { "/a/{id}": { put: {} }, "/b/{id}": { put: {}, patch: {} }, "/c": { put: {} } } };
 * const got = ["/a/{id}", "/b/{id}", "/c"].map((t) => isSoleUpdate(doc, "PUT", t));
 * if (got.join() !== "true,false,false") throw new Error(got.join());
 * ```
 */
export function isSoleUpdate(doc: unknown, method: string, template: string): boolean {
  if (method !== "PUT") return false;
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const item = deref(doc, paths[template]);
  if (!isNode(item) || item.put === undefined || item.patch !== undefined) return false;
  // A path no parameter ends is an item too when it reads as one (`/auth/profile`).
  return /\{[^}]*\}\/?$/.test(template) || isOneItemPath(doc, item);
}

/** `value` with each member `schema` requires that came out `{}` given something to change. */
function inRequired(doc: unknown, maker: ExampleMaker, schema: unknown, value: unknown): unknown {
  const s = deref(doc, schema);
  if (!isNode(value) || !isNode(s) || !Array.isArray(s.required) || !isNode(s.properties)) {
    return value;
  }
  const out = { ...value };
  for (const name of s.required) {
    if (typeof name !== "string" || !Object.hasOwn(out, name)) continue;
    const member = s.properties[name];
    out[name] = somethingToPatch(doc, maker, member, inRequired(doc, maker, member, out[name]));
  }
  return out;
}
