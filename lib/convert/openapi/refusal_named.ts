/**
 * The members a write's documented refusal says it needs. A document
 * written by hand (swagger-jsdoc comments above Express routes) often lists
 * a body's members with no `required` list and says in its error answer
 * what the handler checks: a school planner's `PUT /posts/{id}` takes
 * `{title, text, image}` and documents `400: "Bad request, missing title or
 * text"`; its handler refuses either missing, and the update was sent one
 * member (`title`), refused 400 "Missing text". A sentence of a 4xx
 * answer's description that says something is missing or required names,
 * word for word, the top-level members it needs; each such member the body
 * leaves out is sent, made as the generator makes a required one. Words
 * that are no member name (`Bad request`) name nothing; a member the
 * sentence does not name (`image`) stays out, as do read-only and
 * deprecated ones.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";

/** A sentence saying what a refused body lacked: "missing title or text", "name is required". */
const LACKED = /\b(?:missing|required)\b/i;

/** The lower-cased words of each 4xx description's sentences that say something is missing. */
function refusalWords(doc: unknown, op: Node): Set<string> {
  const words = new Set<string>();
  const responses = isNode(op.responses) ? op.responses : {};
  for (const [code, raw] of Object.entries(responses)) {
    const answer = deref(doc, raw);
    if (!/^4\d\d$/.test(code) || !isNode(answer) || typeof answer.description !== "string") {
      continue;
    }
    for (const sentence of answer.description.split(/[.;!?\n]+/)) {
      if (!LACKED.test(sentence)) continue;
      for (const word of sentence.split(/[^A-Za-z0-9_]+/)) words.add(word.toLowerCase());
    }
  }
  return words;
}

/**
 * The top-level members of `schema` that `op`'s documented refusals say are
 * missing or required and `value` leaves out (see the module).
 *
 * @example
 * ```ts
 * import { refusalNamed } from "./refusal_named.ts";
 * const op = { responses: { 400: { description: "Bad request, missing title or text" } } };
 * const schema = { properties: { title: {}, text: {}, image: {} } };
 * if (refusalNamed({}, op, schema, { title: "t" }).join() !== "text") throw new Error();
 * if (refusalNamed({}, { responses: { 400: { description: "Bad text" } } }, schema, {}).length) {
 *   throw new Error();
 * }
 * ```
 */
export function refusalNamed(doc: unknown, op: Node, schema: unknown, value: unknown): string[] {
  const s = deref(doc, schema);
  if (!isNode(s) || !isNode(s.properties) || !isNode(value)) return [];
  const words = refusalWords(doc, op);
  if (words.size === 0) return [];
  const members = s.properties;
  return Object.keys(members).filter((name) => {
    const p = deref(doc, members[name]);
    return words.has(name.toLowerCase()) && !Object.hasOwn(value, name) && isNode(p) &&
      p.readOnly !== true && p.deprecated !== true;
  });
}

/**
 * A JSON body's value with the members its documented refusals name (see
 * {@linkcode refusalNamed}) made and added.
 *
 * @example
 * ```ts
 * import { withRefusalNamed } from "./refusal_named.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const op = { responses: { 400: { description: "Missing title or text" } } };
 * const schema = { properties: { title: { type: "string" }, text: { type: "string" } } };
 * const got = withRefusalNamed({}, new ExampleMaker({}), op, schema, {});
 * if (JSON.stringify(Object.keys(got as object)) !== '["title","text"]') throw new Error();
 * ```
 */
export function withRefusalNamed(
  doc: unknown,
  maker: ExampleMaker,
  op: Node,
  schema: unknown,
  value: unknown,
): unknown {
  const named = refusalNamed(doc, op, schema, value);
  if (named.length === 0) return value;
  const members = (deref(doc, schema) as Node).properties as Node;
  const out = { ...(value as Node) };
  for (const name of named) {
    const made = maker.make(members[name], 1);
    if (made !== undefined) out[name] = made;
  }
  return out;
}
