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
import { jsonpath, type JSONPathQuery } from "json-p3";
import { SyntaxAtError } from "./errors.ts";

/** Which document `$` denotes. */
export type PathRoot = "response" | "body";

/** A compiled path. */
export interface CompiledPath {
  /** The path as written. */
  source: string;
  root: PathRoot;
  /** RFC 9535 singular query: selects at most one node, so it yields a value, not a list. */
  singular: boolean;
  query: JSONPathQuery;
}

/**
 * A path that is not valid JSONPath or does not fit its root.
 *
 * @example
 * ```ts
 * import { compilePath, PathSyntaxError } from "./path.ts";
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
 * if (RESPONSE_MEMBERS.join() !== "json,status,headers") throw new Error();
 * ```
 */
export const RESPONSE_MEMBERS: readonly string[] = ["json", "status", "headers"];

/**
 * Compiles a path, throwing {@linkcode PathSyntaxError} with the offset of
 * the problem. Under the `response` root the first segment must name
 * `json`, `status` or `headers`, because nothing else can ever match.
 *
 * @example
 * ```ts
 * import { compilePath } from "./path.ts";
 * const p = compilePath("$.json.items[*].id", "response");
 * if (p.singular) throw new Error("a wildcard yields a list");
 * if (!compilePath("$.token", "body").singular) throw new Error();
 * ```
 */
export function compilePath(source: string, root: PathRoot): CompiledPath {
  let query: JSONPathQuery;
  try {
    query = jsonpath.compile(source);
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
      throw new PathSyntaxError(
        `Path "${source}" does not start at $.json, $.status or $.headers.`,
        1,
        `Under "capture", "assert.json" and "loop.until.json" the body is $.json, e.g. "$.json${
          source.slice(1)
        }"; under "extract" and "assert.jsonpath" the body is $.`,
      );
    }
  }
  return { source, root, singular: query.singularQuery(), query };
}

/** What a path selected. */
export interface Selection {
  found: boolean;
  /** The value for a singular path, the list of values otherwise (empty when nothing matched). */
  value: unknown;
}

/**
 * Evaluates a compiled path against a document. A singular path yields its
 * value (`found: false` when absent); any other path yields the list of
 * matched values.
 *
 * @example
 * ```ts
 * import { compilePath, select } from "./path.ts";
 * const doc = { items: [{ id: 1 }, { id: 2 }] };
 * const ids = select(compilePath("$.items[*].id", "body"), doc);
 * if (JSON.stringify(ids.value) !== "[1,2]") throw new Error();
 * if (select(compilePath("$.missing", "body"), doc).found) throw new Error();
 * ```
 */
export function select(path: CompiledPath, document: unknown): Selection {
  const values = path.query.query(document as never).values();
  if (path.singular) {
    return values.length === 0 ? { found: false, value: null } : { found: true, value: values[0] };
  }
  return { found: values.length > 0, value: values };
}
