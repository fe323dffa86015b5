/**
 * JSONPath (RFC 9535, via json-p3): compiled once when a flow is loaded
 * (`path_compile.ts`, re-exported here), evaluated against each response
 * (here; filters whose cost the body sets in `path_filter.ts`).
 *
 * Two roots exist. Under spelling A (`capture`, `assert.json`,
 * `loop.until.json`) `$` is the response: `$.json` is the parsed body,
 * `$.status` the status code, `$.headers.<lower-case name>` a header. Under
 * spelling B (`extract`, `assert.jsonpath`) `$` is the body itself.
 *
 * @module
 */
import type { CompiledPath, PathRoot } from "../model/path.ts";
import type { Expr, Template } from "../model/template.ts";
import { pathEngine } from "./path_engine.ts";
import { compilePath, FILTER_DESCENT_LIMIT } from "./path_compile.ts";
import { cheapHere, evaluateGuarded, FilterTimeout, FilterTooDeep } from "./path_filter.ts";
import { evaluate } from "./_path_walk.ts";

export {
  compilePath,
  FILTER_DESCENT_LIMIT,
  MAX_PATH_NESTING,
  PathSyntaxError,
  RESPONSE_MEMBERS,
} from "./path_compile.ts";
export type { CompiledPath, PathRoot } from "../model/path.ts";

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
