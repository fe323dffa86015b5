/**
 * How messages name what a flow holds: a node as words (`the string "200"`,
 * `a list`, `nothing`), long quoted values shortened, and what counts as an
 * empty section.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { clipped } from "../_util/clip.ts";

/** Longest quoted value kept whole in a message; longer ones keep their start and end. */
export const MAX_QUOTED = 120;

/**
 * A message with its long quoted values shortened, and at most a few
 * thousand characters: a megabyte key or name is quoted, not copied.
 *
 * @example
 * ```ts
 * import { bounded } from "./describe.ts";
 * const text = bounded(`Unknown key "${"k".repeat(500)}".`);
 * if (!text.endsWith(' (500 characters).')) throw new Error(text);
 * ```
 */
export function bounded(text: string): string {
  // Quotes pair up left to right (an escaped \" stays inside): matching only the long spans
  // would pair the closing quote of one value with the opening quote of the next, and shorten
  // the words between them as if they were a value.
  const short = text.replace(
    /"((?:[^"\\\n]|\\.)*)"/g,
    (whole, inner: string) =>
      inner.length <= MAX_QUOTED
        ? whole
        : `"${inner.slice(0, MAX_QUOTED - 30)}…${inner.slice(-20)}" (${inner.length} characters)`,
  );
  return clipped(short, 2000);
}

/**
 * A node or value as a message names it: `the string "200"`, `a list`, `nothing`.
 *
 * @example
 * ```ts
 * import { describe } from "./describe.ts";
 * if (describe(null) !== "nothing") throw new Error();
 * ```
 */
export function describe(node: unknown): string {
  if (node === null || node === undefined) return "nothing";
  if (isMap(node)) return "a map";
  if (isSeq(node)) return node.items.length === 0 ? "an empty list" : "a list";
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return "null";
    if (typeof v === "string") {
      return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
    }
    return `${typeof v === "number" ? "the number" : "the boolean"} ${String(v)}`;
  }
  return "an unsupported value";
}

/**
 * An empty section (`vars:` with nothing after it): the yaml package gives a null scalar, not null.
 *
 * @example
 * ```ts
 * import { isEmpty } from "./describe.ts";
 * if (!isEmpty(null)) throw new Error();
 * ```
 */
export function isEmpty(node: Node | null): boolean {
  return node === null || (isScalar(node) && node.value === null);
}
