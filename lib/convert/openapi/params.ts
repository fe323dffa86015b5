/**
 * Parameter values: the document's own (the parameter's `example` or first
 * of `examples`, its content's example, its schema's example, `default`,
 * `enum`'s first value), else one generated from its schema; and how each
 * place writes them in a flow (a path segment, a `query` entry, a list for
 * an exploded array, `name[key]` for a deepObject, a header's text).
 *
 * @module
 */
import { isNode, member, type Node } from "../../check/openapi_operations.ts";
import { FOREIGN_EXPRESSION } from "../../load/spelling.ts";
import type { YNode } from "../yaml_out.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { requestedStatus } from "./requested_status.ts";
import { domainValue } from "./domain_names.ts";
import { listedValue } from "./prose_sample.ts";
import { firstChoice } from "./example_choices.ts";
import { namedKind } from "./named_kind.ts";
import { placeWord } from "./sibling_words.ts";
import { saidDate } from "./said_date.ts";

/** A parameter's value, and whether the document gave it (rather than it being generated). */
export interface ParamValue {
  value: unknown;
  given: boolean;
}

/**
 * A parameter's value; with the operation `op`, a path parameter that
 * chooses the answer's status is its documented 2xx (`requested_status.ts`).
 *
 * @example
 * ```ts
 * import { paramValue } from "./params.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const maker = new ExampleMaker({});
 * const a = paramValue({}, maker, { name: "limit", in: "query", schema: { type: "integer", maximum: 100 } });
 * if (a.value !== 1 || a.given) throw new Error();
 * const b = paramValue({}, maker, { name: "s", in: "query", examples: { one: { value: "asc" } } });
 * if (b.value !== "asc" || !b.given) throw new Error();
 * ```
 */
export function paramValue(doc: unknown, maker: ExampleMaker, p: Node, op?: Node): ParamValue {
  const own = givenExample(doc, p);
  if (own.given) return chosen(own);
  const status = requestedStatus(p, op);
  if (status !== undefined) return { value: status, given: false };
  const content = isNode(p.content) ? p.content : undefined;
  const media = content ? content[Object.keys(content)[0]] : undefined;
  const fromMedia = givenExample(doc, media);
  if (fromMedia.given) return chosen(fromMedia);
  const schema = deref(doc, p.schema ?? member(media, "schema"));
  const gives = isNode(schema) &&
    ["example", "default", "const", "examples", "enum"].some((k) => Object.hasOwn(schema, k));
  const words = gives ? undefined : inWords(doc, maker, p, schema);
  // A path parameter no value is given: the word other paths put at its place (a placeholder's).
  const word = placeWord(doc, op, p, gives ? undefined : schema);
  if (word !== undefined) return { value: word, given: false };
  return { value: words ?? maker.make(described(p, schema)) ?? "string", given: gives };
}

/** A given example that lists choices (`newest|oldest`) as its first (`example_choices.ts`). */
function chosen(given: ParamValue): ParamValue {
  return { ...given, value: firstChoice(given.value) ?? given.value };
}

/** A text schema with no words of its own, given its parameter's where they call it a date (`said_date.ts`). */
function described(p: Node, schema: unknown): unknown {
  if (!isNode(schema) || schema.description !== undefined || schema.$ref !== undefined) {
    return schema;
  }
  const worded = { ...schema, description: p.description };
  return saidDate(worded) === undefined ? schema : worded;
}

/**
 * A value the document gives a parameter with none of its own only in words: a text its
 * description calls a domain name, the document's own sample of one (a form, made the run's
 * own); a kind of something, the one the document's words name ("the SOA-EDIT metadata"); the
 * first of the values its description lists ("one of “all”, “zone”").
 */
function inWords(doc: unknown, maker: ExampleMaker, p: Node, schema: unknown): unknown {
  const domain = domainValue(doc, p, schema);
  if (domain !== undefined) maker.samples.add(domain);
  const s = isNode(schema) ? schema : {};
  const listed = s.type === undefined || s.type === "string"
    ? listedValue({ ...s, description: p.description ?? s.description })
    : undefined;
  return domain ?? namedKind(doc, String(p.name), schema, p.description) ?? listed;
}

/**
 * The `example`, or the first of `examples` (a map of example objects, `$ref`s followed), of a
 * parameter or media type.
 */
export function givenExample(doc: unknown, node: unknown): ParamValue {
  if (!isNode(node)) return { value: undefined, given: false };
  if (Object.hasOwn(node, "example")) {
    // An example that is only a $ref is followed, as the bundle followed it (see bundle.ts).
    const ref = isNode(node.example) && Object.keys(node.example).length === 1 &&
      typeof node.example.$ref === "string";
    return { value: ref ? deref(doc, node.example) : node.example, given: true };
  }
  // The map itself may be a $ref (DigitalOcean's examples: {$ref: examples.yml#/list}).
  const examples = deref(doc, node.examples);
  if (isNode(examples)) {
    for (const key of Object.keys(examples)) {
      const example = deref(doc, examples[key]);
      if (isNode(example) && Object.hasOwn(example, "value")) {
        return { value: example.value, given: true };
      }
    }
  }
  return { value: undefined, given: false };
}

/**
 * The var holding a literal `{`, for text flowrun would refuse as another
 * tool's expression: `{{credentials}}` is written `${vars.lbrace}{credentials}}`
 * (Adyen's examples hold placeholders of its own, sent for Adyen to fill in).
 * `FlowBuilder` declares the var in a flow that uses it.
 */
export const LBRACE_VAR = "lbrace";
const LBRACE = `\${vars.${LBRACE_VAR}}`;

/**
 * The var `LBRACE_VAR` (a literal `{`) with its comment, when `used` (a
 * flow's steps and vars) reads it; declared first, so any var may use it.
 *
 * @example
 * ```ts
 * import { lbraceVars } from "./params.ts";
 * if (lbraceVars(["${vars.lbrace}{x}}"])[0]?.[1] !== "{" || lbraceVars(["x"]).length !== 0) throw new Error();
 * ```
 */
export function lbraceVars(used: unknown): [string, string, string][] {
  if (!JSON.stringify(used).includes(LBRACE)) return [];
  return [[
    LBRACE_VAR,
    "{",
    "a literal \"{\": the document's text holds {{…}} (or {vars.…}) meant for the server, which flowrun would refuse as another tool's expression; ${vars.lbrace}{x}} sends {{x}}",
  ]];
}

/**
 * Text as the flow writes it: `${` is written `$${`, so a value is never
 * read as an expression, and the `{` of a `{{x}}` or `{vars.x}` comes from
 * the var `lbrace`, so the flow is not refused for another tool's
 * placeholder (foreign-expression) and the text is sent as it is.
 *
 * @example
 * ```ts
 * import { literal } from "./params.ts";
 * if (literal("a${b}") !== "a$${b}") throw new Error();
 * if (literal("Basic {{c}}") !== "Basic ${vars.lbrace}{c}}") throw new Error();
 * ```
 */
export function literal(text: string): string {
  let out = text.replaceAll("${", () => "$${");
  const foreign = new RegExp(FOREIGN_EXPRESSION.source, "g");
  // Each replacement removes its match and adds none (its "{" follows a "$"); bounded anyway.
  for (let n = 0; n < 1_000; n++) {
    foreign.lastIndex = 0;
    const found = foreign.exec(out);
    if (!found) break;
    out = `${out.slice(0, found.index)}${LBRACE}${out.slice(found.index + 1)}`;
  }
  return out;
}

/**
 * A value as flow YAML: maps and lists kept, strings literal, an integer
 * past 2^53 the nearest one the loader keeps exactly (JSON already read
 * Water Linked's id 2339264502380679709 as another number; the loader
 * refuses to send one it cannot keep).
 *
 * @example
 * ```ts
 * import { toYNode } from "./params.ts";
 * const node = toYNode({ a: ["${x}"] }) as { entries: [string, string[]][] };
 * if (node.entries[0][1][0] !== "$${x}") throw new Error();
 * if (toYNode(2 ** 60) !== Number.MAX_SAFE_INTEGER) throw new Error();
 * ```
 */
export function toYNode(value: unknown): YNode {
  if (typeof value === "string") return literal(value);
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return Math.sign(value) * Number.MAX_SAFE_INTEGER;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.map(toYNode);
  if (isNode(value)) {
    // A key is flow text too (a body's keys are templates): "${k}" written "$${k}".
    return { kind: "map", entries: Object.keys(value).map((k) => [literal(k), toYNode(value[k])]) };
  }
  return null;
}

/**
 * A value as one piece of text (a path segment, a header): a list joined
 * with commas, a map as `key,value` pairs (the `simple` style).
 *
 * @example
 * ```ts
 * import { simpleText } from "./params.ts";
 * if (simpleText([1, 2]) !== "1,2" || simpleText({ a: 1 }) !== "a,1" || simpleText(null) !== "") throw new Error();
 * ```
 */
export function simpleText(value: unknown): string {
  if (Array.isArray(value)) return value.map(simpleText).join(",");
  if (isNode(value)) return Object.keys(value).map((k) => `${k},${simpleText(value[k])}`).join(",");
  return value === null || value === undefined ? "" : String(value);
}

/**
 * A query parameter's entries in a `query` map: a scalar as it is, an
 * array as a list (or joined when `explode: false`), an object spread into
 * its keys (`name[key]` for a deepObject).
 *
 * @example
 * ```ts
 * import { queryEntries } from "./params.ts";
 * const list = queryEntries({ name: "tags", in: "query" }, ["a", "b"]);
 * if (JSON.stringify(list) !== '[["tags",["a","b"]]]') throw new Error();
 * const deep = queryEntries({ name: "f", in: "query", style: "deepObject" }, { x: 1 });
 * if (deep[0][0] !== "f[x]") throw new Error();
 * ```
 */
export function queryEntries(p: Node, value: unknown): [string, YNode][] {
  const name = String(p.name);
  const explode = p.explode !== false;
  if (Array.isArray(value)) {
    return explode
      ? [[name, value.map((v) => literal(simpleText(v)))]]
      : [[name, literal(simpleText(value))]];
  }
  if (isNode(value)) {
    if (!explode) return [[name, literal(simpleText(value))]];
    const key = (k: string) => p.style === "deepObject" ? `${name}[${k}]` : k;
    return Object.keys(value).map((k) => [key(k), scalarNode(value[k])]);
  }
  return [[name, scalarNode(value)]];
}

function scalarNode(value: unknown): YNode {
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  return literal(typeof value === "string" ? value : simpleText(value));
}
