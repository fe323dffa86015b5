/**
 * Compiling JSONPath (RFC 9535, via json-p3) once, when a flow is loaded: a
 * plain member chain is compiled here, anything else by json-p3; under the
 * `response` root the first segment must name a member of the response. A
 * compiled path is frozen and shared by every flow that writes it.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type { JSONPathEnvironment, JSONPathQuery } from "json-p3";
import type { CompiledPath, PathRoot } from "../model/path.ts";
import { BoundedCache } from "../_util/bounded_cache.ts";
import { SyntaxAtError } from "../model/errors.ts";
import { pathEngine } from "./path_engine.ts";

/**
 * How deep a descendant segment (`..`) inside a filter may look, e.g. the
 * `@..id` of `$.items[?@..id]`. Those are evaluated by json-p3, whose walk
 * costs the square of the depth per candidate, so the limit stays modest. A
 * descendant segment outside filters has no depth limit.
 *
 * @example
 * ```ts
 * import { FILTER_DESCENT_LIMIT } from "./path_compile.ts";
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

/**
 * A path that is not valid JSONPath or does not fit its root.
 *
 * @example
 * ```ts
 * import { compilePath, PathSyntaxError } from "./path_compile.ts";
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
 * import { RESPONSE_MEMBERS } from "./path_compile.ts";
 * if (RESPONSE_MEMBERS.join() !== "json,status,headers,cookies,jar,url,duration_ms,body") throw new Error();
 * ```
 */
export const RESPONSE_MEMBERS: readonly string[] = [
  "json",
  "status",
  "headers",
  "cookies",
  "jar",
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
 * import { compilePath } from "./path_compile.ts";
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
  const query = compileQuery(source, written);
  if (root === "response") checkResponseRoot(source, query);
  const filtered = query.segments.some((segment) =>
    segment.selectors.some((selector) => /Filter/.test(selector.constructor.name))
  );
  return Object.freeze({
    source,
    root,
    singular: query.singularQuery(),
    query,
    filtered,
    weight: filterWeight(written, filtered),
  });
}

/** A path beyond a plain chain, compiled by json-p3; its errors as {@linkcode PathSyntaxError}. */
function compileQuery(source: string, written: string): JSONPathQuery {
  const deep = tooNestedAt(written);
  if (deep !== undefined) {
    throw new PathSyntaxError(
      `Invalid JSONPath "${source}": brackets and parentheses nest more than ${MAX_PATH_NESTING} ` +
        "levels deep here.",
      deep,
      "Select in steps: capture a part of the body, then check inside it.",
    );
  }
  // Outside the try: an engine not loaded yet is the loader's to load (ModuleNeeded), not a
  // syntax error.
  const environment = jsonPathEnvironment();
  try {
    return environment.compile(written);
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
}

/** Under the `response` root, the first segment must name members of the response only. */
function checkResponseRoot(source: string, query: JSONPathQuery): void {
  if (query.segments.length === 0) return;
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

/** See `weight` of {@linkcode CompiledPath}: 0 without a filter. */
function filterWeight(written: string, filtered: boolean): number {
  if (!filtered) return 0;
  if (/\b(match|search)\s*\(/.test(written)) return Infinity;
  return written.match(/\[\s*\?|\.\.|[@$]/g)?.length ?? 1;
}

/**
 * How deep `[…]` and `(…)` may nest in a path: 64 levels. json-p3's parser
 * recurses per level, so `[?@[?@[?…]]]` 3,000 deep ended in "Maximum call
 * stack size exceeded", a limit that moves with what else is on the stack.
 *
 * @example
 * ```ts
 * import { MAX_PATH_NESTING } from "./path_compile.ts";
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
