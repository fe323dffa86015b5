/**
 * A create sends each optional member its own answer requires. A FastAPI
 * room-booking API's booking create lists `purpose` without requiring it,
 * while the create's 201 answer, the booking as stored, requires `purpose`
 * as text: the body left it out, the server stored the booking and then
 * failed writing its own answer (500, its answer model refusing a null
 * `purpose`), so no id was read and the booking's read, update and delete
 * were skipped. The answer to a create is what it made; a member every
 * success answer must hold, that the request lets the client give, comes
 * from the client. Only top-level members the request lists as optional,
 * of one plain type (text, a number, a switch) or it or null (pydantic 2's
 * `Optional[str] = None`: `anyOf` the text or null, default null, which an
 * answer that may not be null refuses), where every JSON success answer
 * requires the same name and none may answer it null. Left out as
 * before: a member the request gives a `default` of or whose description
 * says the server fills it (`server_defaults.ts`), a closed list (`enum`,
 * `const`: a value may gate what the item may do), a `pattern` or
 * `format` free text may break, an id of something else (`id_noun.ts`: it
 * must exist), a password, and a read-only or deprecated member.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import { serverDefaults } from "./server_defaults.ts";
import { idNoun } from "./id_noun.ts";
import { isPasswordField } from "./password_field.ts";

/** Exact names a schema requires at its top, through `allOf`. */
function requiredNames(doc: unknown, schema: unknown, depth = 0): Set<string> {
  const found = new Set<string>();
  const s = deref(doc, schema);
  if (!isNode(s) || depth > 8) return found;
  for (const name of Array.isArray(s.required) ? s.required : []) {
    if (typeof name === "string") found.add(name);
  }
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    for (const name of requiredNames(doc, part, depth + 1)) found.add(name);
  }
  return found;
}

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

/** Whether every JSON success answer of `op` requires `name`, never null there. */
function answersRequire(doc: unknown, op: Node, name: string): boolean {
  const schemas = successes(doc, op).responses.map((r) => jsonSchema(doc, r));
  return schemas.length > 0 && schemas.every((schema) => {
    if (!requiredNames(doc, schema).has(name)) return false;
    const p = properties(doc, schema).find(([n]) => n === name)?.[1];
    return p !== undefined && p.readOnly !== true && !mayBeNull(doc, p);
  });
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
 * `schema`), with each optional member its success answers require added
 * at the generator's value (see the module).
 *
 * @example
 * ```ts
 * import { withAnswerRequired } from "./answer_required.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const text = { type: "string" };
 * const schema = { type: "object", required: ["room"], properties: { room: text, purpose: text, note: text } };
 * const answer = { type: "object", required: ["id", "purpose"], properties: { id: {}, purpose: text } };
 * const op = { responses: { "201": { content: { "application/json": { schema: answer } } } } };
 * const got = withAnswerRequired({}, new ExampleMaker({}), op, schema, { room: "a" });
 * if (JSON.stringify(got) !== '{"room":"a","purpose":"string"}') throw new Error(JSON.stringify(got));
 * ```
 */
export function withAnswerRequired(
  doc: unknown,
  maker: ExampleMaker,
  op: Node,
  schema: unknown,
  value: unknown,
): unknown {
  if (!isNode(value)) return value;
  const required = requiredNames(doc, schema);
  const out: Node = { ...value };
  for (const [name, p] of properties(doc, schema)) {
    if (Object.hasOwn(out, name) || required.has(name) || !clientGives(doc, name, p)) continue;
    if (!answersRequire(doc, op, name)) continue;
    const made = maker.make(besideNull(doc, p));
    if (made !== undefined && made !== null) out[name] = made;
  }
  return out;
}
