/**
 * The start of a value's JSON text, made without stringifying the whole of
 * it: a path can select a million nodes or a document nested a hundred
 * thousand levels deep, whose full text would take gigabytes or overflow the
 * stack, while a message needs its first few thousand characters.
 *
 * @module
 */

/** The start of a JSON text. */
export interface JsonHead {
  /** The text, at most `limit` characters (more when one string value is long). */
  text: string;
  /** The length of the whole text when it was written out; undefined when it was cut. */
  total?: number;
}

/**
 * Writes `value` as compact JSON, like `JSON.stringify`, without recursion,
 * stopping once `limit` characters are written.
 *
 * @example
 * ```ts
 * import { jsonHead } from "./json_head.ts";
 * const small = jsonHead({ a: [1, "x", null], b: true }, 100);
 * if (small.text !== '{"a":[1,"x",null],"b":true}' || small.total !== small.text.length) throw new Error();
 * let deep: unknown = 0;
 * for (let i = 0; i < 100_000; i++) deep = [deep];
 * const cut = jsonHead(deep, 50);
 * if (cut.total !== undefined || !cut.text.startsWith("[[[[")) throw new Error();
 * ```
 */
export function jsonHead(value: unknown, limit: number): JsonHead {
  let text = "";
  // Each frame is an open list or object: its values, their keys for an object, the next index.
  const stack: { values: unknown[] | Record<string, unknown>; keys?: string[]; at: number }[] = [];
  const open = (v: unknown): void => {
    if (Array.isArray(v)) {
      text += "[";
      stack.push({ values: v, at: 0 });
    } else if (v !== null && typeof v === "object") {
      text += "{";
      const record = v as Record<string, unknown>;
      stack.push({
        values: record,
        keys: Object.keys(record).filter((k) => record[k] !== undefined),
        at: 0,
      });
    } else text += JSON.stringify(v) ?? "null";
  };
  open(value);
  while (stack.length > 0) {
    if (text.length > limit) return { text };
    const frame = stack[stack.length - 1];
    const size = frame.keys ? frame.keys.length : (frame.values as unknown[]).length;
    if (frame.at === size) {
      text += frame.keys ? "}" : "]";
      stack.pop();
      continue;
    }
    const at = frame.at++;
    if (at > 0) text += ",";
    if (frame.keys) {
      const key = frame.keys[at];
      text += `${JSON.stringify(key)}:`;
      open((frame.values as Record<string, unknown>)[key]);
    } else open((frame.values as unknown[])[at]);
  }
  return { text, total: text.length };
}
