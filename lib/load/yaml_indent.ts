/**
 * What a YAML indentation slip most likely meant, from the lines around it:
 * a key indented unlike its siblings, a list item's "- " out of line with
 * the items before it, a tab, a flow file written as a list item. The column
 * meant is taken from the lines above (the keys and items the slipped line
 * could belong to), never guessed, so following the hint loads.
 *
 * @module
 */
import { STEP_KEYS } from "./key_hints.ts";
import {
  column,
  isContent,
  type KeyMatch,
  keyOf,
  LOOKBACK,
  opensBlock,
  type Slip,
  spaces,
} from "./yaml_lines.ts";

/** The first line (1-based) an upward scan from `line` reads. */
const floor = (line: number): number => Math.max(1, line - LOOKBACK);

/**
 * The indentation slip that explains a syntax error on `line` of `lines`
 * (the file's lines), or `undefined` when the lines show none.
 *
 * @example
 * ```ts
 * import { indentSlip } from "./yaml_indent.ts";
 * const lines = ["steps:", "  - name: a", "    request: {url: x}", " - name: b"];
 * const slip = indentSlip(lines, 4, "BAD_INDENT");
 * if (slip?.hint !== 'Indent line 4 by 1 more space, to line up its "- " with the one on line 2.') {
 *   throw new Error(slip?.hint);
 * }
 * ```
 */
export function indentSlip(lines: string[], line: number, code: string): Slip | undefined {
  if (code === "TAB_AS_INDENT") return tabSlip(lines, line);
  if (code === "DUPLICATE_KEY") return undefined;
  return topDashSlip(lines, line) ?? dashSlip(lines, line) ?? keySlip(lines, line);
}

/**
 * A flow written as a list item (`- name: a` on the first line, `steps:` at
 * the margin after it): a flow file is one map.
 */
function topDashSlip(lines: string[], line: number): Slip | undefined {
  const first = lines.slice(0, LOOKBACK).findIndex(isContent);
  if (first < 0 || first + 1 >= line || !/^- [\w-]+:/.test(lines[first])) return undefined;
  const margin = lines.slice(0, LOOKBACK).findIndex((l, i) => i > first && keyOf(l)?.[1] === "");
  if (margin < 0) return undefined;
  const under = margin - first - 1;
  return {
    line: first + 1,
    column: 1,
    message: `the flow starts with "- " on line ${
      first + 1
    }, which makes it a list item, but a flow file is one map of keys`,
    through: lines.length,
    hint: `Remove the "- " at the start of line ${first + 1}${
      under > 0 ? `, and 2 spaces from the start of lines ${first + 2} to ${margin}` : ""
    }.`,
  };
}

/** A list item on `line` whose "- " is not lined up with the item before it. */
function dashSlip(lines: string[], line: number): Slip | undefined {
  const dash = /^( *)- /.exec(lines[line - 1] ?? "");
  if (!dash) return undefined;
  const at = dash[1].length;
  for (let n = line - 1; n >= floor(line); n--) {
    const source = lines[n - 1];
    if (!isContent(source)) continue;
    const indent = source.length - source.trimStart().length;
    const sibling = /^ *- /.test(source);
    if (sibling && indent === at) return undefined;
    if (sibling && Math.abs(indent - at) <= 2) return dashFix(lines, line, at, indent, n);
    // A key to the left of the item is its parent: no sibling above it.
    if (!sibling && indent < at) return undefined;
  }
  return undefined;
}

/**
 * The edit that lines the item on `line` (its "- " at `at`) up with the one
 * on line `n` (at `to`): its lines under it move too when they line up with
 * it as written (the whole item was shifted), else only its own line.
 */
function dashFix(lines: string[], line: number, at: number, to: number, n: number): Slip {
  let end = line;
  while (
    end < lines.length &&
    (!isContent(lines[end]) || lines[end].length - lines[end].trimStart().length > at)
  ) end++;
  while (end > line && !isContent(lines[end - 1])) end--;
  const next = lines.findIndex((l, i) => i >= line && isContent(l));
  const whole = next >= 0 && next < end &&
    lines[next].length - lines[next].trimStart().length === at + 2;
  const by = Math.abs(to - at);
  const way = to > at ? "more" : "fewer";
  const which = whole && end > line ? `lines ${line} to ${end}` : `line ${line}`;
  return {
    line,
    column: at + 1,
    message: `the "- " on line ${line} is indented ${
      spaces(at)
    }, but the one on line ${n} is indented ${to}: the items of one list line up`,
    hint: `Indent ${which} by ${by} ${way} ${
      by === 1 ? "space" : "spaces"
    }, to line up its "- " with the one on line ${n}.`,
    through: end,
  };
}

/** A tab in the indentation of `line`: the spaces it stands for, from the line above. */
function tabSlip(lines: string[], line: number): Slip | undefined {
  for (let n = line - 1; n >= floor(line); n--) {
    const source = lines[n - 1];
    if (!isContent(source) || /^ *\t/.test(source)) continue;
    const key = keyOf(source);
    const indent = key ? column(key) : source.length - source.trimStart().length;
    const child = key !== null && opensBlock(source);
    const want = child ? indent + 2 : indent;
    const like = child ? `under "${key![3]}:" on line ${n}` : `to line up with line ${n}`;
    return {
      line,
      column: 1,
      message: `line ${line} is indented with a tab; YAML indents with spaces only`,
      // Past a tab the parser cannot tell the levels apart: its errors after it are this one.
      through: lines.length,
      unexplainedOnly: true,
      hint: `Indent with spaces, not tabs: replace the indentation of line ${line} with ${
        spaces(want)
      }, ${like}.`,
    };
  }
  return undefined;
}

/**
 * A key indented unlike its siblings: the key on the line after `line` when
 * it is deeper than `line`'s key, which holds a value (the parser stops at
 * the key before the one that is off), else `line`'s own key.
 */
function keySlip(lines: string[], line: number): Slip | undefined {
  const key = keyOf(lines[line - 1]);
  const next = keyOf(lines[line]);
  if (key && next && !next[2] && !opensBlock(lines[line - 1]) && column(next) > column(key)) {
    return offKey(lines, line + 1, next);
  }
  return key && !key[2] ? offKey(lines, line, key) : undefined;
}

/** The slip of `key` on `line` when a level above it is the one meant. */
function offKey(lines: string[], line: number, key: KeyMatch): Slip | undefined {
  const level = stepLevel(lines, line, key[3]) ?? nearestLevel(lines, line, column(key));
  if (!level || level.column === column(key)) return undefined;
  const [name, at, like, n] = [key[3], column(key), level.name, level.line];
  const block = opensBlock(lines[line - 1]) && isContent(lines[line])
    ? ", and the lines under it with it"
    : "";
  return {
    line,
    column: at + 1,
    message: `"${name}" on line ${line} is indented ${
      spaces(at)
    }, but "${like}" (line ${n}) is indented ${level.column}: ${
      level.step ? `"${name}" is a key of the step, and keys` : "keys"
    } of one map line up`,
    hint: `${
      level.step ? `"${name}" on line ${line} is a key of the step: indent` : "Indent"
    } "${name}" ${spaces(level.column)}, like "${like}" on line ${n}${block}.`,
  };
}

interface Level {
  column: number;
  name: string;
  line: number;
  step?: boolean;
}

/**
 * For a key of a step (`assert`, `capture`, …), the indent of the nearest
 * key of the step above it: lining it up with any other neighbour (a
 * capture's name) would make it a capture, a new mistake.
 */
function stepLevel(lines: string[], line: number, name: string): Level | undefined {
  if (!(STEP_KEYS as readonly string[]).includes(name)) return undefined;
  for (let n = line - 1; n >= floor(line); n--) {
    const m = keyOf(lines[n - 1]);
    if (!m || m[3] === name || !(STEP_KEYS as readonly string[]).includes(m[3])) continue;
    return { column: column(m), name: m[3], line: n, step: true };
  }
  return undefined;
}

/**
 * The level `at` most likely meant: of the keys above that a key could line
 * up with (each one left of those below it), the nearest column, the deeper
 * on a tie. `undefined` when `at` is one of them, or when the key above
 * opens a block that `at` is inside of (its first key may go any deeper).
 */
function nearestLevel(lines: string[], line: number, at: number): Level | undefined {
  const levels: Level[] = [];
  for (let n = line - 1; n >= floor(line) && (levels.at(-1)?.column ?? 1) > 0; n--) {
    const m = keyOf(lines[n - 1]);
    if (!m || column(m) >= (levels.at(-1)?.column ?? Infinity)) continue;
    if (levels.length === 0 && opensBlock(lines[n - 1]) && at > column(m)) return undefined;
    levels.push({ column: column(m), name: m[3], line: n });
  }
  if (levels.some((l) => l.column === at)) return undefined;
  let best: Level | undefined;
  for (const l of levels) {
    if (!best || Math.abs(l.column - at) < Math.abs(best.column - at)) best = l;
  }
  return best;
}
