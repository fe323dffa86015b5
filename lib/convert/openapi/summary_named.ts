/**
 * The property an operation's summary says it changes, in a body whose
 * schema requires nothing: PowerDNS's `PUT …/cryptokeys/{cryptokey_id}` is
 * "This method (de)activates a key", its `Cryptokey` lists no `required` at
 * all, and the server needs `active` (422 "Key 'active' not present"), a
 * boolean left out as a switch (`ExampleMaker.withExamples`). When a schema
 * says nothing of what it needs, the operation's own words are the
 * evidence: a summary's word that is the property's name, or that name with
 * an ending (`activates` for `active`, `rrsets` for `rrset`). A name of
 * fewer than 5 letters (`name`, `key`) is too common a word to tell, unless
 * the summary says it is needed: "Role name cannot be empty.", "The key is
 * required." (etcd's document, generated from proto3, requires nothing, and
 * its role and user creates were sent `{}`: "role name is empty"). So is a
 * property whose own description says it is the thing itself, a value the
 * client chooses (text, or bytes: no id of the server's): "key is the key,
 * in bytes, to put into the key-value store", "key is the first key for the
 * range" (etcd's put and range were sent no key: "key is not provided"),
 * or that it is what the operation acts on, by the verb its summary uses:
 * "perm is the permission to grant to the role" of "… grants a permission
 * …" (etcd crashed on a grant naming its role and no `perm`). An id the
 * server hands out (`format: int64`) is never made up.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { properties } from "./schema_properties.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

/** A word a summary says is needed: "name cannot be empty", "key is required". */
const NEEDED =
  /\b([a-z][a-z0-9_]*)\s+(?:cannot|can not|must not|may not)\s+be\s+(?:empty|blank|omitted)\b|\b([a-z][a-z0-9_]*)\s+(?:is|are)\s+required\b/g;

/** The words `summary` says are needed (see {@linkcode NEEDED}), lower case. */
function needed(summary: string): Set<string> {
  const found = [...summary.toLowerCase().matchAll(NEEDED)].map((m) => m[1] ?? m[2]);
  return new Set(found.map((w) => w.replace(/[_-]/g, "")));
}

/**
 * Whether a property's description says it is the thing itself ("key is the first key …"; not
 * "role is the name of the role …"), and its value is the client's own: text or bytes.
 */
function selfDescribed(name: string, p: Node): boolean {
  if (typeof p.description !== "string" || p.type !== "string") return false;
  if (p.format !== undefined && p.format !== "byte") return false;
  const word = escapeRegExp(name);
  return new RegExp(`^\\s*${word} is the (?:(?!of\\b)[\\w,]+ ){0,2}?${word}\\b`, "i")
    .test(p.description);
}

/** Whether a description says the property is what the summary's verb acts on: "… to grant …". */
function actedOn(p: Node, words: string[]): boolean {
  if (typeof p.description !== "string" || /^u?int(32|64)$/.test(String(p.format))) return false;
  const verbs = [...p.description.toLowerCase().matchAll(/\bto ([a-z]{3,})\b/g)].map((m) => m[1]);
  return verbs.some((verb) => words.some((w) => w === `${verb}s` || w === `${verb}es`));
}

/** Letters a summary's word may add to a property's name: `activates` is `activ` + `ates`. */
const MAX_ENDING = 4;

/**
 * Whether a summary's word names the property (see the module).
 *
 * @example
 * ```ts
 * import { names } from "./summary_named.ts";
 * if (!names("activates", "active") || names("keys", "key")) throw new Error();
 * ```
 */
export function names(word: string, property: string): boolean {
  const plain = property.toLowerCase().replace(/[_-]/g, "");
  if (plain.length < 5) return false;
  const stem = plain.replace(/e$/, "");
  return word.startsWith(stem) && word.length - stem.length <= MAX_ENDING;
}

/**
 * The top-level properties of a schema with no `required` list that the
 * operation's summary names and `value` leaves out.
 *
 * @example
 * ```ts
 * import { summaryNamed } from "./summary_named.ts";
 * const schema = { properties: { active: { type: "boolean" }, published: { type: "boolean" } } };
 * const op = { summary: "This method (de)activates a key" };
 * if (summaryNamed({}, op, schema, {}).join() !== "active") throw new Error();
 * if (summaryNamed({}, op, { ...schema, required: [] }, {}).length !== 0) throw new Error();
 * const add = { summary: "RoleAdd adds a new role. Role name cannot be empty." };
 * if (summaryNamed({}, add, { properties: { name: {}, note: {} } }, {}).join() !== "name") {
 *   throw new Error();
 * }
 * ```
 */
export function summaryNamed(doc: unknown, op: Node, schema: unknown, value: unknown): string[] {
  const s = deref(doc, schema);
  if (typeof op.summary !== "string" || !isNode(s) || !isNode(s.properties)) return [];
  if (Array.isArray(s.required) || !isNode(value)) return [];
  const words = op.summary.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
  const said = needed(op.summary);
  return Object.keys(s.properties).filter((name) => {
    const raw = (s.properties as Node)[name];
    // A `$ref`'s own description is the property's (etcd's `perm`), not its schema's.
    const p = isNode(raw) && typeof raw.description === "string"
      ? { ...deref(doc, raw) as Node, description: raw.description }
      : deref(doc, raw);
    const named = said.has(name.toLowerCase().replace(/[_-]/g, "")) ||
      words.some((word) => names(word, name)) ||
      (isNode(p) && (selfDescribed(name, p) || actedOn(p, words)));
    return !Object.hasOwn(value, name) && isNode(p) && p.readOnly !== true &&
      p.deprecated !== true && named;
  });
}

/**
 * A JSON body's value with the properties its operation's summary names
 * (see {@linkcode summaryNamed}) made and added.
 *
 * @example
 * ```ts
 * import { withSummaryNamed } from "./summary_named.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { properties: { active: { type: "boolean" }, keytype: { enum: ["ksk"] } } };
 * const op = { summary: "(De)activates a key" };
 * const got = withSummaryNamed({}, new ExampleMaker({}), op, schema, { keytype: "ksk" });
 * if (JSON.stringify(got) !== '{"keytype":"ksk","active":true}') throw new Error(JSON.stringify(got));
 * ```
 */
export function withSummaryNamed(
  doc: unknown,
  maker: ExampleMaker,
  op: Node,
  schema: unknown,
  value: unknown,
): unknown {
  const named = summaryNamed(doc, op, schema, value);
  if (named.length === 0) return value;
  const s = deref(doc, schema) as Node;
  const out = { ...(value as Node) };
  for (const name of named) {
    const made = maker.make((s.properties as Node)[name], 1);
    if (made !== undefined) out[name] = whole(doc, maker, (s.properties as Node)[name], made);
  }
  return out;
}

/**
 * An object the operation acts on that came out `{}` (proto3 requires nothing: etcd's `perm`),
 * as the client describes it: its text and bytes, its enums' first value; ids left to the server.
 */
function whole(doc: unknown, maker: ExampleMaker, schema: unknown, made: unknown): unknown {
  const s = deref(doc, schema);
  if (!isNode(made) || Object.keys(made).length > 0 || !isNode(s)) return made;
  const out: Node = {};
  for (const [name, p] of properties(doc, s)) {
    const chosen = p.type === "string" && (p.format === undefined || p.format === "byte");
    if (p.readOnly === true || !(chosen || Array.isArray(p.enum))) continue;
    const value = maker.withExamples().make(p, 2);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
