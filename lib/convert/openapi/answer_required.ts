/**
 * A POST that adds an item to a listed collection sends each optional
 * member the item must hold. A FastAPI room-booking API's booking create
 * lists `purpose` without requiring it, while the create's 201 answer and
 * each item of the listing `GET /bookings/` (one schema, `BookingResponse`)
 * require `purpose` as text: the body left it out, the server stored the
 * booking and then failed writing its own answer (500, its answer model
 * refusing a null `purpose`), so no id was read and the booking's read,
 * update and delete were skipped; on the next run the listing failed too.
 *
 * The evidence is the document's: the create answers an item of the very
 * schema its collection lists, so the member is part of every stored
 * item, and the create is where an item's members come from. The create's
 * answer alone is not enough: Jupyter Server's save (`PUT
 * /api/contents/{path}`, every member optional) answers a file's model
 * that requires `format` and `content`, a view whose members the reader
 * chooses (null unless asked for), and a made-up `format` was refused. So
 * only a POST whose path's GET answers a list (at its top or in one
 * envelope member) of the schema every JSON success answer of the POST is,
 * never a PUT to a path naming one item.
 *
 * Only top-level members the request lists as optional, of one plain type
 * (text, a number, a switch) or it or null (pydantic 2's `Optional[str] =
 * None`: `anyOf` the text or null, default null, which an answer that may
 * not be null refuses), where the item requires the same name and may not
 * hold it null. Left out as before: a member the request gives a non-null
 * `default` of or whose description says the server fills it
 * (`server_defaults.ts`), a closed list (`enum`, `const`: a value may gate
 * what the item may do), a `pattern` or `format` free text may break, an id
 * of something else (`id_noun.ts`: it must exist), a password, and a
 * read-only or deprecated member.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties, requiredNames } from "./schema_properties.ts";
import { serverDefaults } from "./server_defaults.ts";
import { idNoun } from "./id_noun.ts";
import { isPasswordField } from "./password_field.ts";

/** Whether a schema may be null: `nullable`, `x-nullable`, a `"null"` type, a null choice. */
function mayBeNull(doc: unknown, p: Node): boolean {
  if (p.nullable === true || p["x-nullable"] === true) return true;
  if (Array.isArray(p.type) ? p.type.includes("null") : p.type === "null") return true;
  if (Array.isArray(p.enum) && p.enum.includes(null)) return true;
  const choices = [p.anyOf, p.oneOf].flatMap((c) => Array.isArray(c) ? c : []);
  return choices.some((c) => {
    const branch = deref(doc, c);
    return isNode(branch) && mayBeNull(doc, branch);
  });
}

/**
 * The one kind a member holds beside null: pydantic 2 writes `Optional[str] = None` as `anyOf`
 * the text or null, default null; any other schema as it is.
 */
function besideNull(doc: unknown, p: Node): Node {
  const choices = [p.anyOf, p.oneOf].find(Array.isArray);
  if (choices === undefined) return p;
  const kinds = choices.map((c) => deref(doc, c)).filter(isNode);
  const other = kinds.filter((c) => !(c.type === "null" && Object.keys(c).length === 1));
  return other.length === 1 && kinds.length === choices.length ? other[0] : p;
}

/** Whether the item schema `item` requires `name`, never null nor read-only there. */
function itemRequires(doc: unknown, item: Node, name: string): boolean {
  if (!requiredNames(doc, item).has(name)) return false;
  const p = properties(doc, item).find(([n]) => n === name)?.[1];
  return p !== undefined && p.readOnly !== true && !mayBeNull(doc, p);
}

/** Whether two schemas are one: the same node (a shared `$ref`) or written alike. */
const sameSchema = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The item schemas a listing's answer lists: its own items, else an envelope member's. */
function listed(doc: unknown, answer: unknown): unknown[] {
  const s = deref(doc, answer);
  if (!isNode(s)) return [];
  if (s.type === "array" || s.items !== undefined) return [deref(doc, s.items)];
  return properties(doc, s).flatMap(([, p]) =>
    p.type === "array" || p.items !== undefined ? [deref(doc, p.items)] : []
  );
}

/**
 * The item POST `op` to `template` adds to a collection: the one schema every JSON success answer
 * of it is, when the GET of the same path lists items of that schema; none otherwise.
 */
function listedItem(doc: unknown, op: Node, method: string, template: string): Node | undefined {
  if (method !== "POST" || !isNode(doc) || !isNode(doc.paths)) return undefined;
  const answers = successes(doc, op).responses.map((r) => jsonSchema(doc, r));
  const item = answers[0];
  if (!isNode(item) || !answers.every((a) => sameSchema(a, item))) return undefined;
  const path = deref(doc, doc.paths[template]);
  const get = isNode(path) && isNode(path.get) ? path.get : undefined;
  const lists = get !== undefined &&
    successes(doc, get).responses.some((r) =>
      listed(doc, jsonSchema(doc, r)).some((s) => sameSchema(s, item))
    );
  return lists ? item : undefined;
}

/**
 * Whether optional request member `name` (schema `p`) is one the client plainly gives. A default
 * of null is no value the server fills: an answer that may not be null refuses it.
 */
function clientGives(doc: unknown, name: string, p: Node): boolean {
  const kind = besideNull(doc, p);
  if (!["string", "number", "boolean"].includes(String(kind.type))) return false;
  if (p.readOnly === true || p.deprecated === true || kind.readOnly === true) return false;
  if ((p.default ?? null) !== null || kind.default !== undefined) return false;
  if (["enum", "const", "pattern", "format"].some((k) => kind[k] !== undefined)) return false;
  // An id of something else must exist; a made-up one names nothing (id_noun.ts).
  return !serverDefaults(doc, p) && !isPasswordField(name, kind) &&
    idNoun(name, kind) === undefined;
}

/**
 * `value`, the generated JSON body of create `op` (request schema
 * `schema`, sent by `where.method` to `where.template`), with each optional
 * member its listed item requires added at the generator's value (see the
 * module).
 *
 * @example
 * ```ts
 * import { withAnswerRequired } from "./answer_required.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const text = { type: "string" };
 * const schema = { type: "object", required: ["room"], properties: { room: text, purpose: text, note: text } };
 * const item = { type: "object", required: ["id", "purpose"], properties: { id: {}, purpose: text } };
 * const json = (s: unknown) => ({ content: { "application/json": { schema: s } } });
 * const op = { responses: { "201": json(item) } };
 * const doc = { paths: { "/bookings": { post: op, get: { responses: { "200": json({ type: "array", items: item }) } } } } };
 * const post = { method: "POST", template: "/bookings" };
 * const got = withAnswerRequired(doc, new ExampleMaker(doc), op, schema, { room: "a" }, post);
 * if (JSON.stringify(got) !== '{"room":"a","purpose":"string"}') throw new Error(JSON.stringify(got));
 * // A PUT to one item, or a collection never listed: as it was.
 * const put = { method: "PUT", template: "/bookings" };
 * if (JSON.stringify(withAnswerRequired(doc, new ExampleMaker(doc), op, schema, { room: "a" }, put)) !== '{"room":"a"}') {
 *   throw new Error();
 * }
 * ```
 */
export function withAnswerRequired(
  doc: unknown,
  maker: ExampleMaker,
  op: Node,
  schema: unknown,
  value: unknown,
  where: { method: string; template: string },
): unknown {
  const item = isNode(value) ? listedItem(doc, op, where.method, where.template) : undefined;
  if (!isNode(value) || item === undefined) return value;
  const required = requiredNames(doc, schema);
  const out: Node = { ...value };
  for (const [name, p] of properties(doc, schema)) {
    if (Object.hasOwn(out, name) || required.has(name) || !clientGives(doc, name, p)) continue;
    if (!itemRequires(doc, item, name)) continue;
    const made = maker.make(besideNull(doc, p));
    if (made !== undefined && made !== null) out[name] = made;
  }
  return out;
}
