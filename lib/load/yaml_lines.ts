/**
 * Reading a flow file's lines as a person wrote them, for the hints of
 * YAML slips (`yaml_indent.ts`, `yaml_slips.ts`, `yaml_block_hints.ts`):
 * a line's key and the column its value starts at, whether it opens a
 * block, whether it holds anything, and how far up a hint may read.
 *
 * @module
 */

/**
 * A slip found in the lines: where it is (1-based), what the author most
 * likely meant, and the edit that fixes it.
 *
 * @example
 * ```ts
 * import type { Slip } from "./yaml_lines.ts";
 * const slip: Slip = { line: 3, column: 10, message: "…", hint: 'Quote it: scope: "*"' };
 * if (slip.through !== undefined) throw new Error();
 * ```
 */
export interface Slip {
  line: number;
  column: number;
  message: string;
  hint: string;
  /** The last line whose errors this slip explains (the parser trips on the lines after it). */
  through?: number;
  /** Whether only the errors up to `through` that no slip of their own explains are its echoes. */
  unexplainedOnly?: boolean;
}

/** A `key:` on a line: its indent, its "- " if any, and the key. */
export type KeyMatch = RegExpExecArray;

/**
 * The `key:` a line starts with (after its indent and a "- "), or `null`.
 *
 * @example
 * ```ts
 * import { keyOf } from "./yaml_lines.ts";
 * if (keyOf("  - name: a")?.[3] !== "name" || keyOf("  http://x") !== null) throw new Error();
 * ```
 */
export const keyOf = (source: string | undefined): KeyMatch | null =>
  /^( *)(- )?([\w-]+):(?=\s|$)/.exec(source ?? "");

/**
 * Where a key's value starts after it: a map key, or a list item's key after its "- ".
 *
 * @example
 * ```ts
 * import { column, keyOf } from "./yaml_lines.ts";
 * if (column(keyOf("  - name: a")!) !== 4 || column(keyOf("    url: x")!) !== 4) throw new Error();
 * ```
 */
export const column = (m: KeyMatch): number => m[1].length + (m[2]?.length ?? 0);

/**
 * Whether a line ends at its key's colon (a comment aside): its value is the block under it.
 *
 * @example
 * ```ts
 * import { opensBlock } from "./yaml_lines.ts";
 * if (!opensBlock("request: # the call") || opensBlock("url: x")) throw new Error();
 * ```
 */
export const opensBlock = (source: string): boolean => /:\s*(#.*)?$/.test(source);

/**
 * Whether a line holds more than blanks or a comment.
 *
 * @example
 * ```ts
 * import { isContent } from "./yaml_lines.ts";
 * if (isContent("  # c") || isContent("  ") || !isContent("a: 1")) throw new Error();
 * ```
 */
export const isContent = (source: string | undefined): boolean =>
  source !== undefined && source.trim() !== "" && !source.trimStart().startsWith("#");

/**
 * `n spaces`, or `1 space`.
 *
 * @example
 * ```ts
 * import { spaces } from "./yaml_lines.ts";
 * if (spaces(1) !== "1 space" || spaces(6) !== "6 spaces") throw new Error();
 * ```
 */
export const spaces = (n: number): string => `${n} ${n === 1 ? "space" : "spaces"}`;

/**
 * How many lines above a slip are read for its level: what it lines up
 * with is near it, and a file of many slips stays linear to explain.
 *
 * @example
 * ```ts
 * import { LOOKBACK } from "./yaml_lines.ts";
 * if (LOOKBACK !== 400) throw new Error();
 * ```
 */
export const LOOKBACK = 400;
