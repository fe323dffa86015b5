/**
 * A PATCH of one item whose body requires nothing sends one change, not
 * the examples of each optional member. Found on Directus 10: the body of
 * `PATCH /users/{id}` is the user as it is read (`Users`: its id, its last
 * access, its 2FA secret), and the server refuses a change of what is its
 * own (400 "You can't change the tfa_secret value manually"); the body of
 * `PATCH /folders/{id}` `{name?, parent?}` was sent the one example, a
 * parent `3`, which names no folder of a fresh server (500). A PATCH
 * changes what it sends, and an example of an optional member is the
 * document author's item, not a change the user asked for: the body is
 * the first text member that names no item (`somethingToPatch`, as for an
 * update of nothing). A member the operation's summary says it changes
 * keeps the body as it was (summary_named.ts), as does a schema with no
 * such text, and a body the document gives whole.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { changeable, oneBranch } from "./many_update.ts";
import { somethingToPatch } from "./patch_body.ts";
import { summaryNamed } from "./summary_named.ts";

/**
 * Whether an operation is a PATCH of one item: its path ends with a
 * parameter (`/users/{id}`).
 *
 * @example
 * ```ts
 * import { patchesOneItem } from "./one_change.ts";
 * if (!patchesOneItem("PATCH", "/users/{id}") || patchesOneItem("PATCH", "/users")) throw new Error();
 * if (patchesOneItem("PUT", "/users/{id}")) throw new Error();
 * ```
 */
export function patchesOneItem(method: string, template: string): boolean {
  return method === "PATCH" && /\{[^}]*\}\/?$/.test(template);
}

/**
 * `value` (a PATCH of one item's body made from its schema), or one
 * change in its place when `schema` requires nothing (see the module doc).
 * `keys` are the members the path names the item by, never changed.
 *
 * @example
 * ```ts
 * import { oneChange } from "./one_change.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { properties: { id: { type: "string" }, parent: { type: "integer" },
 *   name: { type: "string" } } };
 * const got = oneChange({}, new ExampleMaker({}), {}, schema, { id: "x", parent: 3 });
 * if (JSON.stringify(got) !== '{"name":"string"}') throw new Error(JSON.stringify(got));
 * const required = { ...schema, required: ["parent"] };
 * const same = oneChange({}, new ExampleMaker({}), {}, required, { parent: 3 });
 * if (JSON.stringify(same) !== '{"parent":3}') throw new Error();
 * ```
 */
export function oneChange(
  doc: unknown,
  maker: ExampleMaker,
  op: unknown,
  schema: unknown,
  value: unknown,
  keys: ReadonlySet<string> = new Set(),
): unknown {
  const s = deref(doc, schema);
  if (!isNode(value) || !isNode(s)) return value;
  const item = oneBranch(doc, s);
  if (Array.isArray(item.required) && item.required.length > 0) return value;
  if (isNode(op) && summaryNamed(doc, op, item, value).length > 0) return value;
  const change = somethingToPatch(doc, maker, changeable(doc, item), {}, keys);
  return isNode(change) && Object.keys(change).length > 0 ? change : value;
}
