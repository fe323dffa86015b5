/**
 * Small helpers over recorded JSON and URL parts, shared by every stage of
 * the conversion: a depth-bounded parse, a leaf walk, the key of a seen
 * value, a lenient decode. Imports nothing, so the record model
 * (`har_model.ts`) and the step model (`model.ts`) may both use it.
 *
 * @module
 */

/**
 * A path into a JSON body: object keys, array indexes, and filters that pick
 * a list element by a field that tells it apart (`[?@.name == 'Ruby']`), or
 * by several together (`also`: `[?@.collection == 'posts' && @.field == 'title']`).
 */
export type JsonPath = (
  | string
  | number
  | { key: string; value: string | number; also?: { key: string; value: string }[] }
)[];

/**
 * Deepest nesting of recorded JSON the conversion reads (objects and arrays):
 * far past real API bodies, and every stage that reads a body recurses once
 * per level. A deeper body is kept as recorded text and not read for values.
 *
 * @example
 * ```ts
 * import { MAX_WALK_DEPTH } from "./json.ts";
 * if (MAX_WALK_DEPTH !== 64) throw new Error();
 * ```
 */
export const MAX_WALK_DEPTH = 64;

/**
 * A recorded JSON body that nests deeper than {@linkcode MAX_WALK_DEPTH}.
 *
 * @example
 * ```ts
 * import { TooDeepJson } from "./json.ts";
 * const error = new TooDeepJson();
 * if (!(error instanceof SyntaxError) || error.code !== "too-deep") throw new Error();
 * ```
 */
export class TooDeepJson extends SyntaxError {
  readonly code = "too-deep";
  constructor() {
    super(`the JSON nests deeper than ${MAX_WALK_DEPTH} levels`);
  }
}

/**
 * `JSON.parse(text)` for a recorded body, throwing {@linkcode TooDeepJson}
 * when the value nests deeper than {@linkcode MAX_WALK_DEPTH}: callers that
 * fall back to the text for JSON that does not parse keep a deep body as
 * text too. The depth is measured without recursion.
 *
 * @example
 * ```ts
 * import { parseBody, TooDeepJson } from "./json.ts";
 * if (parseBody('{"a":[1]}').a[0] !== 1) throw new Error();
 * let deep = false;
 * try {
 *   parseBody("[".repeat(5000) + "]".repeat(5000));
 * } catch (error) {
 *   deep = error instanceof TooDeepJson;
 * }
 * if (!deep) throw new Error();
 * ```
 */
// deno-lint-ignore no-explicit-any
export function parseBody(text: string): any {
  const value = JSON.parse(text);
  if (depthPast(value, MAX_WALK_DEPTH)) throw new TooDeepJson();
  return value;
}

/** Whether `value` nests objects or arrays more than `limit` deep. */
function depthPast(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= limit) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * Walks JSON leaves with their paths; stops after `limit` leaves (huge
 * bodies) and does not go below {@linkcode MAX_WALK_DEPTH} levels.
 *
 * @example
 * ```ts
 * import { walk } from "./json.ts";
 * const keys: string[] = [];
 * walk({ a: [{ b: 1 }] }, (_path, key) => keys.push(key));
 * if (keys.join() !== "b") throw new Error();
 * ```
 */
export function walk(
  value: unknown,
  visit: (path: JsonPath, key: string, leaf: unknown) => void,
  limit = 5000,
): void {
  let count = 0;
  const go = (v: unknown, path: JsonPath, key: string) => {
    if (count >= limit || path.length > MAX_WALK_DEPTH) return;
    if (Array.isArray(v)) v.forEach((item, i) => go(item, [...path, i], key));
    else if (typeof v === "object" && v !== null) {
      for (const [k, item] of Object.entries(v)) go(item, [...path, k], k);
    } else {
      count++;
      visit(path, key, v);
    }
  };
  go(value, [], "");
}

/**
 * A value's key in the sets and maps of seen values: its type and text, so
 * `42` and `"42"` stay apart.
 *
 * @example
 * ```ts
 * import { valueKey } from "./json.ts";
 * if (valueKey(42) === valueKey("42")) throw new Error();
 * ```
 */
export const valueKey = (v: unknown) => `${typeof v}:${String(v)}`;

/**
 * A URL part decoded (`+` as a space), or as it is when its encoding is
 * broken.
 *
 * @example
 * ```ts
 * import { safeDecode } from "./json.ts";
 * if (safeDecode("a+b%21") !== "a b!" || safeDecode("50%") !== "50%") throw new Error();
 * ```
 */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}
