/**
 * JSONPath (RFC 9535, via json-p3): compiled once when a flow is loaded,
 * evaluated against each response.
 *
 * Two roots exist. Under spelling A (`capture`, `assert.json`,
 * `loop.until.json`) `$` is the response: `$.json` is the parsed body,
 * `$.status` the status code, `$.headers.<lower-case name>` a header. Under
 * spelling B (`extract`, `assert.jsonpath`) `$` is the body itself.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type { JSONPathEnvironment, JSONPathNode, JSONPathQuery } from "json-p3";
import type { CompiledPath, PathRoot } from "../model/path.ts";
import { BoundedCache } from "../_util/bounded_cache.ts";
import { SyntaxAtError } from "../model/errors.ts";
import type { Expr, Template } from "./template.ts";
import { pathEngine } from "./path_engine.ts";
import {
  type GuardedTask,
  GuardError,
  MATCH_TIME_LIMIT_MS,
  runGuarded,
} from "../_util/time_guard.ts";

/**
 * How deep a descendant segment (`..`) inside a filter may look, e.g. the
 * `@..id` of `$.items[?@..id]`. Those are evaluated by json-p3, whose walk
 * costs the square of the depth per candidate, so the limit stays modest. A
 * descendant segment outside filters has no depth limit.
 *
 * @example
 * ```ts
 * import { FILTER_DESCENT_LIMIT } from "./path.ts";
 * if (FILTER_DESCENT_LIMIT !== 256) throw new Error();
 * ```
 */
export const FILTER_DESCENT_LIMIT = 256;

let environment: JSONPathEnvironment | undefined;

/** json-p3's environment, made when the first path that needs it is compiled. */
function jsonPathEnvironment(): JSONPathEnvironment {
  return environment ??= new (pathEngine.get().JSONPathEnvironment)({
    maxRecursionDepth: FILTER_DESCENT_LIMIT,
  });
}

export type { CompiledPath, PathRoot } from "../model/path.ts";

/**
 * A path that is not valid JSONPath or does not fit its root.
 *
 * @example
 * ```ts
 * import { compilePath, PathSyntaxError } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * try {
 *   compilePath("$.items[", "body");
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error instanceof PathSyntaxError) || error.offset !== 8) throw error;
 * }
 * ```
 */
export class PathSyntaxError extends SyntaxAtError {
  constructor(message: string, offset: number, hint?: string) {
    super("bad-path", message, offset, hint);
    this.name = "PathSyntaxError";
  }
}

/**
 * The members of the spelling-A response document.
 *
 * @example
 * ```ts
 * import { RESPONSE_MEMBERS } from "./path.ts";
 * if (RESPONSE_MEMBERS.join() !== "json,status,headers,cookies,url,duration_ms,body") throw new Error();
 * ```
 */
export const RESPONSE_MEMBERS: readonly string[] = [
  "json",
  "status",
  "headers",
  "cookies",
  "url",
  "duration_ms",
  "body",
];

/**
 * Compiles a path, throwing {@linkcode PathSyntaxError} with the offset of
 * the problem. Under the `response` root the first segment must name
 * `json`, `status` or `headers`, because nothing else can ever match.
 *
 * @example
 * ```ts
 * import { compilePath } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const p = compilePath("$.json.items[*].id", "response");
 * if (p.singular) throw new Error("a wildcard yields a list");
 * if (!compilePath("$.token", "body").singular) throw new Error();
 * ```
 */
export function compilePath(source: string, root: PathRoot): CompiledPath {
  return COMPILED.get(`${root} ${source}`, () => compileFresh(source, root));
}

/**
 * Compiled paths by root and source. A suite repeats its paths in every flow
 * (`$.json.token` in each login step), and a compiled query is a dozen
 * objects that evaluation only reads: one copy each, instead of one per use,
 * saves memory for every flow held from the check until it runs, and the
 * compile time. Bounded, so a generated suite of unique paths cannot grow it
 * without end.
 */
const COMPILED = new BoundedCache<CompiledPath>(2_000);

function compileFresh(source: string, root: PathRoot): CompiledPath {
  // Header names compare case-insensitively; the response stores them in lower case.
  const written = root === "response"
    ? source.replace(HEADER_MEMBER, (_, head: string, name: string) => head + name.toLowerCase())
    : source;
  const chain = memberChain(written);
  if (chain) {
    const first = chain[0];
    if (root === "response" && chain.length > 0 && !RESPONSE_MEMBERS.includes(String(first))) {
      throw notResponseMember(source);
    }
    return Object.freeze({ source, root, singular: true, chain: Object.freeze(chain) });
  }
  const deep = tooNestedAt(written);
  if (deep !== undefined) {
    throw new PathSyntaxError(
      `Invalid JSONPath "${source}": brackets and parentheses nest more than ${MAX_PATH_NESTING} ` +
        "levels deep here.",
      deep,
      "Select in steps: capture a part of the body, then check inside it.",
    );
  }
  const environment = jsonPathEnvironment();
  let query: JSONPathQuery;
  try {
    query = environment.compile(written);
  } catch (error) {
    const e = error as Error & { token?: { index?: number } };
    const message = e.message.replace(/\s*\('[^]*':\d+\)$/, "");
    throw new PathSyntaxError(
      `Invalid JSONPath "${source}": ${message}.`,
      e.token?.index ?? 0,
      source.startsWith("$")
        ? "Paths follow RFC 9535, e.g. $.items[0].id, $.items[*].id or $.items[?@.price > 10].name."
        : `Paths start at "$", e.g. "$.${source.replace(/^\.+/, "")}".`,
    );
  }
  if (root === "response" && query.segments.length > 0) {
    const first = query.segments[0] as {
      constructor: { name: string };
      selectors?: { name?: unknown }[];
    };
    const names = first.constructor.name === "ChildSegment"
      ? (first.selectors ?? []).map((s) => s.name)
      : [];
    if (
      names.length === 0 ||
      names.some((n) => typeof n !== "string" || !RESPONSE_MEMBERS.includes(n))
    ) {
      throw notResponseMember(source);
    }
  }
  const filtered = query.segments.some((segment) =>
    segment.selectors.some((selector) => /Filter/.test(selector.constructor.name))
  );
  const weight = !filtered
    ? 0
    : /\b(match|search)\s*\(/.test(written)
    ? Infinity
    : (written.match(/\[\s*\?|\.\.|[@$]/g)?.length ?? 1);
  return Object.freeze({
    source,
    root,
    singular: query.singularQuery(),
    query,
    filtered,
    weight,
  });
}

/**
 * How deep `[…]` and `(…)` may nest in a path: 64 levels. json-p3's parser
 * recurses per level, so `[?@[?@[?…]]]` 3,000 deep ended in "Maximum call
 * stack size exceeded", a limit that moves with what else is on the stack.
 *
 * @example
 * ```ts
 * import { MAX_PATH_NESTING } from "./path.ts";
 * if (MAX_PATH_NESTING !== 64) throw new Error();
 * ```
 */
export const MAX_PATH_NESTING = 64;

/** The offset of the first bracket or parenthesis past {@linkcode MAX_PATH_NESTING}, outside string literals. */
function tooNestedAt(source: string): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "[" || c === "(") {
      if (++depth > MAX_PATH_NESTING) return i;
    } else if (c === "]" || c === ")") depth--;
  }
  return undefined;
}

function notResponseMember(source: string): PathSyntaxError {
  return new PathSyntaxError(
    `Path "${source}" does not start at $.json, $.status or $.headers.`,
    1,
    `Under "capture", "assert.json" and "loop.until.json" the body is $.json, e.g. "$.json${
      source.slice(1)
    }"; under "extract" and "assert.jsonpath" the body is $.`,
  );
}

/**
 * The names and indices of a path written as a plain chain without blanks:
 * `.name` (ASCII letters, digits, `_`), `['name']` or `["name"]` without
 * escapes or control characters, `[index]`. Anything else (wildcards,
 * filters, slices, `..`, escapes, blanks) is left to json-p3, which then
 * also gives the syntax errors.
 */
function memberChain(source: string): (string | number)[] | undefined {
  if (source[0] !== "$") return undefined;
  const chain: (string | number)[] = [];
  let at = 1;
  while (at < source.length) {
    const m = CHAIN_SEGMENT.exec(source.slice(at));
    if (!m) return undefined;
    if (m[1] !== undefined) chain.push(m[1]);
    else if (m[2] !== undefined) chain.push(Number(m[2]));
    else chain.push(m[3] ?? m[4]);
    at += m[0].length;
  }
  return chain;
}

/**
 * One segment of a plain chain; an index has at most 15 digits, within RFC
 * 9535's range; a quoted name holds only what RFC 9535 allows unescaped (no
 * quote, backslash, control character or surrogate).
 */
const CHAIN_SEGMENT =
  /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[(0|-?[1-9][0-9]{0,14})\]|\['([ -&(-[\]-\uD7FF\uE000-\uFFFF]*)'\]|\["([ !#-[\]-\uD7FF\uE000-\uFFFF]*)"\])/;

/** `$.headers.<name>` or `$.headers['<name>']`: the part before the name, and the name. */
const HEADER_MEMBER =
  /^(\$\s*(?:\.\s*headers|\[\s*['"]headers['"]\s*\])\s*(?:\.\s*|\[\s*['"]))([A-Za-z0-9_-]+)/;

/**
 * A hint for a path that matched nothing because it is rooted the other
 * spelling's way: `$.json…` under `jsonpath`/`extract`, where the body is `$`.
 *
 * @example
 * ```ts
 * import { compilePath, rootHint } from "./path.ts";
 * const hint = rootHint(compilePath("$.json.id", "body"));
 * if (hint !== ' (under "jsonpath" and "extract" the body is $: did you mean $.id?)') throw new Error(hint);
 * if (rootHint(compilePath("$.id", "body")) !== "") throw new Error();
 * ```
 */
export function rootHint(path: CompiledPath): string {
  const m = /^\$\s*\.\s*json\b\s*(.*)$/s.exec(path.source);
  if (path.root !== "body" || !m) return "";
  return ` (under "jsonpath" and "extract" the body is $: did you mean $${m[1]}?)`;
}

/** What a path selected. */
export interface Selection {
  found: boolean;
  /** The value for a singular path, the list of values otherwise (empty when nothing matched). */
  value: unknown;
  /**
   * Set when the path could not be evaluated against this document (it is
   * nested too deeply for it): a plain sentence. `found` is then false, but
   * that does not mean the path is absent.
   */
  problem?: string;
}

/**
 * Evaluates a compiled path against a document. A singular path yields its
 * value (`found: false` when absent); any other path yields the list of
 * matched values. Never throws: a document the path cannot be evaluated on
 * yields `found: false` with a `problem`.
 *
 * @example
 * ```ts
 * import { compilePath, select } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const doc = { items: [{ id: 1 }, { id: 2 }] };
 * const ids = select(compilePath("$.items[*].id", "body"), doc);
 * if (JSON.stringify(ids.value) !== "[1,2]") throw new Error();
 * if (select(compilePath("$.missing", "body"), doc).found) throw new Error();
 * ```
 *
 * @example A document nested 100,000 levels deep
 * ```ts
 * import { compilePath, select } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const deep = JSON.parse('{"a":'.repeat(100_000) + '{"id":7}' + "}".repeat(100_000));
 * const ids = select(compilePath("$..id", "body"), deep);
 * if (JSON.stringify(ids.value) !== "[7]") throw new Error();
 * ```
 */
export function select(path: CompiledPath, document: unknown): Selection {
  if (path.chain) return follow(path.chain, document);
  let values: unknown[];
  try {
    values = path.filtered && !cheapHere(path.weight ?? Infinity, document)
      ? evaluateGuarded(path.source, document)
      : evaluate(path.query!, document, pathEngine.get().JSONPathNode);
  } catch (error) {
    return {
      found: false,
      value: path.singular ? null : [],
      problem: problemOf(error, path.root),
    };
  }
  if (path.singular) {
    return values.length === 0 ? { found: false, value: null } : { found: true, value: values[0] };
  }
  return { found: values.length > 0, value: values };
}

/** A plain chain's value: each name of an object's own member, each index of an array's item. */
function follow(chain: readonly (string | number)[], document: unknown): Selection {
  let value = document;
  for (const step of chain) {
    if (typeof step === "number") {
      if (!Array.isArray(value)) return { found: false, value: null };
      const i = step < 0 ? value.length + step : step;
      if (i < 0 || i >= value.length) return { found: false, value: null };
      value = value[i];
    } else {
      if (
        value === null || typeof value !== "object" || Array.isArray(value) ||
        !Object.hasOwn(value, step)
      ) return { found: false, value: null };
      value = (value as Record<string, unknown>)[step];
    }
  }
  return { found: true, value };
}

/**
 * `JSONPathQuery.query` walks `..` recursively (a limit of 50 levels, and a
 * cost of the square of the depth beyond it) and spreads each selector's
 * matches into an argument list (which overflows past about 100,000 matches),
 * so the segments are applied here instead: children one by one, descendants
 * with an explicit stack, in the document order RFC 9535 asks for.
 */
function evaluate(
  query: JSONPathQuery,
  document: unknown,
  Node: typeof JSONPathNode,
): unknown[] {
  let nodes = [new Node(document as never, [], document as never)];
  for (const segment of query.segments) {
    const next: JSONPathNode[] = [];
    const apply = (node: JSONPathNode) => {
      for (const selector of segment.selectors) {
        for (const match of selector.resolve(node)) next.push(match);
      }
    };
    if (segment.constructor.name === "DescendantSegment") {
      for (const node of nodes) descend(node, apply, Node);
    } else {
      for (const node of nodes) apply(node);
    }
    nodes = next;
  }
  return nodes.map((node) => node.value);
}

/**
 * Visits `start` and every node below it, parents before children. Locations
 * stay empty: only values are read, and copying a location per level would
 * cost the square of the depth.
 */
function descend(
  start: JSONPathNode,
  visit: (node: JSONPathNode) => void,
  Node: typeof JSONPathNode,
): void {
  const stack: unknown[] = [start.value];
  while (stack.length > 0) {
    const value = stack.pop();
    visit(new Node(value as never, [], start.root));
    if (value === null || typeof value !== "object") continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/**
 * Filters run on the helper thread of lib/_util/regex.ts: json-p3 and the two
 * functions above, the document sent once (as JSON text) and kept there for
 * the next paths on it. Its errors come back as results, by kind.
 */
const FILTER_SOURCE = `
const { p3 } = libs;
const environment = new p3.JSONPathEnvironment({ maxRecursionDepth: ${FILTER_DESCENT_LIMIT} });
const queries = new Map();
let held = { id: -1, document: undefined };
${evaluate.toString()}
${descend.toString()}
return ({ id, source, text, sent }) => {
  if (sent) held = { id, document: text === undefined ? undefined : JSON.parse(text) };
  else if (held.id !== id) return { need: true };
  let query = queries.get(source);
  if (!query) {
    if (queries.size >= 1000) queries.clear();
    query = environment.compile(source);
    queries.set(source, query);
  }
  try {
    return { values: JSON.stringify(evaluate(query, held.document, p3.JSONPathNode)) };
  } catch (error) {
    if (error instanceof p3.JSONPathRecursionLimitError) return { failed: "recursion" };
    if (error instanceof RangeError) return { failed: "range" };
    return { failed: String(error && error.message || error) };
  }
};
`;

let filterTask: GuardedTask | undefined;
/** Each document's number, by which the helper thread knows the one it holds. */
const documentIds = new WeakMap<object, number>();
let nextDocument = 0;
/** Documents a filter ran out of time on: the next filters on them are not tried. */
const spentDocuments = new WeakSet<object>();

/** Why a filter path did not finish in time, as a thrown error {@linkcode problemOf} words. */
class FilterTimeout extends Error {}
/** The helper thread's json-p3 reached {@linkcode FILTER_DESCENT_LIMIT}. */
class FilterTooDeep extends Error {}

/** Work a filter may do on the calling thread (the document's nodes to the path's weight). */
const CHEAP_WORK = 100_000;

/**
 * Whether a filtered path is evaluated here: its work is at most the
 * document's node count to the power of its weight (each filter, `..` and
 * query may visit every node once per node of the one around it), and that
 * is small. A check group over 300,000 list items, each a document of a few
 * nodes, then costs no round trip to the helper per item.
 */
function cheapHere(weight: number, document: unknown): boolean {
  if (!Number.isFinite(weight)) return false;
  const most = Math.floor(CHEAP_WORK ** (1 / weight));
  let nodes = 0;
  const stack = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (++nodes > most) return false;
    if (value !== null && typeof value === "object") {
      for (const child of Object.values(value)) stack.push(child);
    }
  }
  return true;
}

/** A filter path's values, computed on the helper thread within the time limit. */
function evaluateGuarded(source: string, document: unknown): unknown[] {
  filterTask ??= {
    name: "jsonpath-filter",
    source: FILTER_SOURCE,
    imports: { p3: import.meta.resolve("json-p3") },
  };
  const object = document !== null && typeof document === "object" ? document : undefined;
  if (object && spentDocuments.has(object)) {
    throw new FilterTimeout(
      `was not tried: an earlier filter on the same document did not finish within ${
        MATCH_TIME_LIMIT_MS / 1000
      } s`,
    );
  }
  let id = object ? documentIds.get(object) : undefined;
  const known = id !== undefined;
  if (id === undefined) {
    id = nextDocument++;
    if (object) documentIds.set(object, id);
  }
  let got: { values?: string; failed?: string; need?: true };
  try {
    got = (known ? runGuarded(filterTask, { id, source }) : { need: true }) as typeof got;
    if (got.need) {
      // As JSON text: a structured copy recurses, and fails on a body nested 5,000 deep.
      const text = JSON.stringify(document);
      got = runGuarded(filterTask, { id, source, text, sent: true }) as typeof got;
    }
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code !== "check-timeout") throw new Error(error.message);
    if (object) spentDocuments.add(object);
    throw new FilterTimeout(
      `did not finish within ${MATCH_TIME_LIMIT_MS / 1000} s (a filter's cost grows with the ` +
        "body: a .. inside a filter, or a match() or search() pattern with nested quantifiers " +
        "such as (a+)+, can take far longer)",
    );
  }
  if (got.failed === "recursion") throw new FilterTooDeep();
  if (got.failed === "range") throw new RangeError("stack");
  if (got.failed !== undefined) throw new Error(got.failed);
  return got.values === undefined ? [] : JSON.parse(got.values);
}

function problemOf(error: unknown, root: PathRoot): string {
  const what = root === "body" ? "the response body" : "the response";
  if (error instanceof FilterTimeout) return `this path ${error.message}`;
  if (
    error instanceof FilterTooDeep || error instanceof pathEngine.get().JSONPathRecursionLimitError
  ) {
    return `${what} is nested deeper than ${FILTER_DESCENT_LIMIT} levels, ` +
      `too deep for a descendant segment (..) inside a filter`;
  }
  if (error instanceof RangeError) {
    return `${what} is nested too deeply to evaluate this path`;
  }
  return `this path could not be evaluated (${(error as Error)?.message ?? String(error)})`;
}

/**
 * The path source with each expression replaced by `text(expr, quote)`,
 * where `quote` is the string literal the expression sits in (`'`, `"`) or
 * `undefined` outside one.
 */
function fill(
  template: Template,
  text: (expr: Expr, quote: "'" | '"' | undefined) => string,
): string {
  let out = "";
  let quote: "'" | '"' | undefined;
  for (const part of template.parts) {
    if (typeof part !== "string") {
      out += text(part, quote);
      continue;
    }
    for (let i = 0; i < part.length; i++) {
      const c = part[i];
      if (quote && c === "\\") i++;
      else if (quote && c === quote) quote = undefined;
      else if (!quote && (c === "'" || c === '"')) quote = c;
    }
    out += part;
  }
  return out;
}

/**
 * Compiles a path written with `${…}` expressions: checked now with a
 * stand-in for each value (so a syntax error is found before anything is
 * sent), resolved by {@linkcode resolvePath} when the step runs.
 *
 * @example
 * ```ts
 * import { compileTemplatePath } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * import { parseTemplate } from "./template.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const path = compileTemplatePath(parseTemplate("$.json.items[?@.name == 'w-${RUN_ID}'].id"), "response");
 * if (!path.template || path.singular) throw new Error();
 * ```
 */
export function compileTemplatePath(template: Template, root: PathRoot): CompiledPath {
  // Its values may turn it into any path when it runs, so the engine is loaded while checking.
  pathEngine.get();
  const probe = fill(template, (_, quote) => quote ? "x" : "0");
  return { ...compilePath(probe, root), source: template.source, template };
}

/**
 * The path to evaluate now: a path with expressions gets their values, each
 * escaped for the string literal it sits in, or written as a JSON literal
 * outside one (`@.id == ${vars.id}` compares with the number, also when the
 * var holds it as text).
 *
 * @example
 * ```ts
 * import { compileTemplatePath, resolvePath } from "./path.ts";
 * import { pathEngine } from "./path_engine.ts";
 * import { parseTemplate } from "./template.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const path = compileTemplatePath(parseTemplate("$.items[?@.name == '${vars.n}'].id"), "body");
 * const now = resolvePath(path, () => "it's");
 * if (now.source !== "$.items[?@.name == 'it\\'s'].id") throw new Error(now.source);
 * ```
 */
export function resolvePath(
  path: CompiledPath,
  value: (expr: Expr) => unknown,
): CompiledPath {
  if (!path.template) return path;
  const source = fill(path.template, (expr, quote) => {
    const v = value(expr);
    // Unquoted, a value is a literal: numbers from vars and parameters (text) stay numbers.
    if (!quote) {
      return typeof v === "string" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v)
        ? v
        : JSON.stringify(v) ?? "null";
    }
    const text = typeof v === "string" ? v : JSON.stringify(v) ?? "";
    return JSON.stringify(text).slice(1, -1).replaceAll("'", quote === "'" ? "\\'" : "'")
      .replaceAll('\\"', quote === '"' ? '\\"' : '"');
  });
  return compilePath(source, path.root);
}
