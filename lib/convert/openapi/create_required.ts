/**
 * A PUT that is its item's only update (no PATCH beside it) and whose
 * schema requires nothing was sent one member to change (`patch_body.ts`),
 * while a server whose update sets every column then writes the others
 * empty: an e-commerce API's `PUT /products/{id}` `{name?, price?, …}`
 * answered 500 "null value in column price" to `{name}`. The item's create
 * (`POST /products`) requires `name`, `price` and `stock`: what the item
 * cannot be without. Such a PUT now also sends each member the create
 * requires that its own schema has, at the create's value; nothing the
 * document marks read-only, nor a key a path names the item by. A PUT
 * whose schema requires something is the document's word on what it
 * takes, and is left as it is.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { jsonBodyMedia } from "./json_body.ts";

/** An operation's JSON request body schema, dereferenced. */
function jsonBody(doc: unknown, op: unknown): Node | undefined {
  const node = deref(doc, op);
  const media = isNode(node) ? jsonBodyMedia(doc, node) : undefined;
  const schema = isNode(media) ? deref(doc, media.schema) : undefined;
  return isNode(schema) ? schema : undefined;
}

/** The JSON body schema of the POST on the collection of item path `template`, if any. */
function createSchema(doc: unknown, template: string): Node | undefined {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const collection = template.replace(/\/$/, "").replace(/\/\{[^}/]+\}$/, "");
  if (collection === template.replace(/\/$/, "")) return undefined;
  for (const path of [collection, `${collection}/`]) {
    const item = deref(doc, paths[path]);
    if (isNode(item) && item.post !== undefined) return jsonBody(doc, item.post);
  }
  return undefined;
}

/**
 * The create's value of a member the update's schema has too (`own`); none for a member either
 * marks read-only, which the server sets.
 */
function createValue(doc: unknown, maker: ExampleMaker, own: unknown, made: unknown): unknown {
  const [o, m] = [deref(doc, own), deref(doc, made)];
  if (!isNode(o) || o.readOnly === true || !isNode(m) || m.readOnly === true) return undefined;
  return maker.withExamples().make(m);
}

/**
 * `value`, the JSON body of the only update of the item at `template`
 * (schema `schema`, which requires nothing), with each member the item's
 * create requires and `schema` has added at the create's value (see the
 * module); `keys` are the names paths give the item, never sent.
 *
 * @example
 * ```ts
 * import { withCreateRequired } from "./create_required.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const props = { name: { type: "string" }, price: { type: "number", example: 9.5 }, note: { type: "string" } };
 * const body = (schema: unknown) => ({ requestBody: { content: { "application/json": { schema } } } });
 * const doc = { paths: {
 *   "/products": { post: body({ type: "object", required: ["name", "price"], properties: props }) },
 *   "/products/{id}": { put: body({ type: "object", properties: props }) },
 * } };
 * const put = { type: "object", properties: props };
 * const got = withCreateRequired(doc, new ExampleMaker(doc), "/products/{id}", put, { name: "n" });
 * if (JSON.stringify(got) !== '{"name":"n","price":9.5}') throw new Error(JSON.stringify(got));
 * const said = { ...put, required: ["name"] };
 * if (JSON.stringify(withCreateRequired(doc, new ExampleMaker(doc), "/products/{id}", said, {})) !== "{}") {
 *   throw new Error();
 * }
 * ```
 */
export function withCreateRequired(
  doc: unknown,
  maker: ExampleMaker,
  template: string,
  schema: unknown,
  value: unknown,
  keys: ReadonlySet<string> = new Set(),
): unknown {
  const s = deref(doc, schema);
  if (!isNode(value) || !isNode(s) || !isNode(s.properties)) return value;
  if (Array.isArray(s.required) && s.required.length > 0) return value;
  const create = createSchema(doc, template);
  if (!create || !Array.isArray(create.required) || !isNode(create.properties)) return value;
  const out: Node = { ...value };
  for (const name of create.required) {
    if (typeof name !== "string" || Object.hasOwn(out, name) || keys.has(name)) continue;
    const at = createValue(doc, maker, s.properties[name], create.properties[name]);
    if (at !== undefined) out[name] = at;
  }
  return out;
}
