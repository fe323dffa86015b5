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
 * of one plain type (text, a number, a switch), where every JSON success
 * answer requires the same name and none may answer it null. Left out as
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

/** Whether a schema may be null: `nullable`, `x-nullable`, a `"null"` type. */
const mayBeNull = (p: Node) =>
  p.nullable === true || p["x-nullable"] === true ||
  (Array.isArray(p.type) && p.type.includes("null"));

/** Whether every JSON success answer of `op` requires `name`, never null nor read-only there. */
function answersRequire(doc: unknown, op: Node, name: string): boolean {
  const schemas = successes(doc, op).responses.map((r) => jsonSchema(doc, r));
  return schemas.length > 0 && schemas.every((schema) => {
    if (!requiredNames(doc, schema).has(name)) return false;
    const p = properties(doc, schema).find(([n]) => n === name)?.[1];
    return p !== undefined && !mayBeNull(p);
  });
}

/** Whether optional request member `name` (schema `p`) is one the client plainly gives. */
function clientGives(doc: unknown, name: string, p: Node): boolean {
  if (!["string", "number", "boolean"].includes(String(p.type))) return false;
  if (p.readOnly === true || p.deprecated === true || mayBeNull(p)) return false;
  if (["default", "enum", "const", "pattern", "format"].some((k) => p[k] !== undefined)) {
    return false;
  }
  // An id of something else must exist; a made-up one names nothing (id_noun.ts).
  return !serverDefaults(doc, p) && !isPasswordField(name, p) && idNoun(name, p) === undefined;
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
    const made = maker.make(p);
    if (made !== undefined && made !== null) out[name] = made;
  }
  return out;
}
