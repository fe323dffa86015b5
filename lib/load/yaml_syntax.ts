/**
 * A flow file's YAML syntax errors as problems: one per line (the parser
 * reports many echoes of one mistake), the first few listed and the rest
 * counted, each with the fix it most likely needs (quoting values inside
 * `{ }`, lining up keys, the "- " a step forgot).
 *
 * @module
 */
import type { YAMLParseError } from "yaml";
import type { Loading } from "./context.ts";
import { STEP_KEYS } from "./key_hints.ts";
import { pluralWord } from "../_util/plural.ts";

/**
 * YAML syntax errors reported per file: past the first few they are mostly
 * echoes of the first.
 *
 * @example
 * ```ts
 * import { MAX_SYNTAX_ERRORS } from "./yaml_syntax.ts";
 * if (MAX_SYNTAX_ERRORS !== 5) throw new Error();
 * ```
 */
export const MAX_SYNTAX_ERRORS = 5;

/**
 * Hints for the YAML parser's error codes.
 *
 * @example
 * ```ts
 * import { YAML_HINTS } from "./yaml_syntax.ts";
 * if (!YAML_HINTS.TAB_AS_INDENT.includes("spaces")) throw new Error();
 * ```
 */
export const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: "Each key may appear once in a map; remove or rename one.",
  TAB_AS_INDENT: "Indent with spaces, not tabs.",
  MULTIPLE_DOCS: "Put one flow in each file; remove the --- separator.",
  MISSING_CHAR: "Close the quote or bracket that starts before this position.",
  BAD_INDENT: "Align the lines of this block with the same indentation.",
  BAD_DQ_ESCAPE: "Inside double quotes, write a backslash as \\\\, or use single quotes.",
};

/** The syntax errors of one line of the file (or of a run of lines with one mistake). */
type LineErrors = [line: number, errors: YAMLParseError[]];

/**
 * Adds a `yaml-syntax` problem for each line of `ctx.doc`'s syntax errors
 * (up to {@linkcode MAX_SYNTAX_ERRORS}; the last one counts the rest).
 *
 * @example
 * ```ts
 * import { reportSyntaxErrors } from "./yaml_syntax.ts";
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const text = "name: a\nsteps: {url: $.a[0]}\n";
 * const ctx = new Loading("a.yaml", {});
 * ctx.doc = parseDocument(text);
 * ctx.lines.addNewLine(0);
 * ctx.lines.addNewLine(8);
 * reportSyntaxErrors(ctx, text);
 * if (ctx.problems[0]?.code !== "yaml-syntax" || !ctx.problems[0].hint?.startsWith("Quote it:")) {
 *   throw new Error(JSON.stringify(ctx.problems));
 * }
 * ```
 */
export function reportSyntaxErrors(ctx: Loading, text: string): void {
  const lines = mergeFlowFollowOns(text, mergeDuplicateKeys(errorsByLine(ctx, text)));
  const shown = lines.slice(0, MAX_SYNTAX_ERRORS);
  const unshown = lines.slice(MAX_SYNTAX_ERRORS).reduce((n, [, es]) => n + es.length, 0);
  for (const [i, entry] of shown.entries()) {
    syntaxProblem(ctx, text, entry, i === shown.length - 1 ? unshown : 0);
  }
}

/** The errors by the line they are on, in the order first met. */
function errorsByLine(ctx: Loading, text: string): Map<number, YAMLParseError[]> {
  const byLine = new Map<number, YAMLParseError[]>();
  for (const e of ctx.doc.errors) {
    const at = Math.min(e.pos[0], text.length);
    const line = ctx.lines.lineStarts.length > 0 ? ctx.lines.linePos(at).line : 1;
    const list = byLine.get(line);
    if (list) list.push(e);
    else byLine.set(line, [e]);
  }
  return byLine;
}

/**
 * Lines whose errors are all duplicate keys, one after another, as one: a
 * step without its "- " repeats every key of the step before it.
 */
function mergeDuplicateKeys(byLine: Map<number, YAMLParseError[]>): LineErrors[] {
  const merged: LineErrors[] = [];
  for (const [line, lineErrors] of byLine) {
    const previous = merged.at(-1);
    if (
      previous && lineErrors.every((e) => e.code === "DUPLICATE_KEY") &&
      previous[1].every((e) => e.code === "DUPLICATE_KEY")
    ) previous[1].push(...lineErrors);
    else merged.push([line, lineErrors]);
  }
  return merged;
}

/**
 * After a line whose unquoted value breaks a `{ }` or `[ ]`, the parser is
 * out of step: the unexpected tokens of the lines after it (up to the next
 * line that breaks one itself) are that one mistake, counted in its problem
 * rather than listed as their own.
 */
function mergeFlowFollowOns(text: string, lines: LineErrors[]): LineErrors[] {
  const merged: LineErrors[] = [];
  const sources = text.split("\n");
  let broken: LineErrors | undefined;
  for (const entry of lines) {
    const [line, lineErrors] = entry;
    // A later line that breaks a collection itself is a mistake of its own.
    const breaks = quoteFlowValues(sources[line - 1] ?? "") !== undefined;
    if (broken && !breaks && lineErrors.every((e) => e.code === "UNEXPECTED_TOKEN")) {
      broken[1].push(...lineErrors);
      continue;
    }
    merged.push(entry);
    broken = breaks ? entry : undefined;
  }
  return merged;
}

/** The problem of one line's errors; `unshown` errors after it are counted in its message. */
function syntaxProblem(ctx: Loading, text: string, entry: LineErrors, unshown: number): void {
  const [line, lineErrors] = entry;
  const e = lineErrors[0];
  const echoes = lineErrors.length - 1;
  const sameLine = lineErrors.every((x) => x.pos[0] === e.pos[0] || lineOf(ctx, x) === line);
  const more = [
    echoes > 0 ? `${echoes} more ${sameLine ? "on this line" : "after it"}, caused by it` : "",
    unshown > 0 ? `${unshown} more syntax ${pluralWord(unshown, "error")} after it` : "",
  ].filter(Boolean).join("; ");
  const suffix = more ? ` (${more})` : "";
  const source = text.split("\n", line)[line - 1] ?? "";
  const fixed = quoteFlowValues(source);
  const at = Math.min(e.pos[0], text.length);
  ctx.problemAt(
    "yaml-syntax",
    fixed
      ? `YAML syntax error: inside { } or [ ], a value holding "[", "]", "{", "}", ", " or ": " must be quoted${suffix}.`
      : `YAML syntax error: ${e.message.split("\n")[0].replace(/\.$/, "")}${suffix}.`,
    fixed ? Math.max(at, brokenAt(ctx, line, source, fixed)) : at,
    fixed ? `Quote it: ${fixed.trim()}` : syntaxHint(text, line, e) ?? YAML_HINTS[e.code] ??
      "Check the indentation and quoting around this position.",
  );
}

/**
 * Where the first value that must be quoted on a line breaks it (its first
 * bracket or brace), as an offset in the file: a parser out of step after
 * an earlier such line reports the line's start instead.
 */
function brokenAt(ctx: Loading, line: number, source: string, fixed: string): number {
  let i = 0;
  while (i < source.length && source[i] === fixed[i]) i++;
  const bracket = source.slice(i).search(/[[{]/);
  const start = ctx.lines.lineStarts[line - 1] ?? 0;
  return start + i + Math.max(bracket, 0);
}

function lineOf(ctx: Loading, e: YAMLParseError): number {
  return ctx.lines.lineStarts.length > 0 ? ctx.lines.linePos(e.pos[0]).line : 1;
}

/**
 * A line with its unquoted values that break a YAML flow collection (`{ }`
 * or `[ ]`) quoted: JSONPaths with brackets, `${…}` expressions, text with
 * ", " or ": ". `undefined` when the line has no such value.
 *
 * @example
 * ```ts
 * import { quoteFlowValues } from "./yaml_syntax.ts";
 * if (quoteFlowValues("  - {path: $.items[0], equals: 1}") !== '  - {path: "$.items[0]", equals: 1}') throw new Error();
 * if (quoteFlowValues("name: plain") !== undefined) throw new Error();
 * ```
 */
export function quoteFlowValues(line: string): string | undefined {
  // The pattern looks behind at each position: kept to lines a person writes.
  if (line.length > 500 || !/[{[]/.test(line)) return undefined;
  let changed = false;
  const fixed = line.replace(
    // A path's brackets may hold spaces (filters: [?@.id == 1]), one level nested.
    /(?<=[{,[]\s*(?:[\w-]+:\s+)?)(?!["'])(\$\{[^}]*\}[^\s,{}]*|\$(?:[^\s,{}[\]]|\[(?:[^[\]]|\[[^[\]]*\])*\])*\[(?:[^[\]]|\[[^[\]]*\])*\](?:[^\s,{}[\]]|\[(?:[^[\]]|\[[^[\]]*\])*\])*)/g,
    (value) => {
      changed = true;
      return JSON.stringify(value);
    },
  );
  return changed ? fixed : undefined;
}

/** A `key:` on a line: its indent, its "- " if any, and the key. */
type KeyMatch = RegExpExecArray;

/**
 * A hint from the lines themselves for the two commonest YAML slips: a key
 * indented unlike its siblings, and a step whose "- " was forgotten (its keys
 * then repeat the previous step's).
 */
function syntaxHint(text: string, line: number, e: YAMLParseError): string | undefined {
  const lines = text.split("\n", line + 1);
  const keyAt = (n: number) => /^( *)(- )?([\w-]+):/.exec(lines[n - 1] ?? "");
  const key = keyAt(line);
  if (e.code === "DUPLICATE_KEY" && key?.[3] === "name" && !key[2] && key[1].length >= 2) {
    return `A new step starts with "- ": write "${key[1].slice(2)}- name:" here.`;
  }
  if (!key || e.code === "DUPLICATE_KEY" || e.code === "TAB_AS_INDENT") return undefined;
  // The parser often stops at the key before the one that is off: compare with both neighbours.
  return nextKeyHint(lines, line, key, keyAt(line + 1)) ?? aboveKeyHint(lines, line, key, keyAt);
}

/** Where a key's value starts after it: a map key, or a list item's key after its "- ". */
function column(m: KeyMatch): number {
  return m[1].length + (m[2]?.length ?? 0);
}

/** The hint when the key on the next line is indented deeper than `key`, which holds a value. */
function nextKeyHint(
  lines: string[],
  line: number,
  key: KeyMatch,
  next: KeyMatch | null,
): string | undefined {
  const holdsValue = !/:\s*(#.*)?$/.test(lines[line - 1]);
  if (!next || next[2] || !holdsValue || column(next) <= column(key)) return undefined;
  return stepKeyHint(lines, line + 1, next[3]) ??
    `"${next[3]}" on line ${line + 1} is indented ${column(next)} spaces and "${key[3]}" ${
      column(key)
    }: keys of one map line up; indent "${next[3]}" ${column(key)} spaces, like "${key[3]}".`;
}

/**
 * For a key of a step (`assert`, `capture`, …) that is off, the indent of the
 * nearest key of the step above it: lining it up with any other neighbour
 * (a capture's name) would make it a capture, a new mistake.
 */
function stepKeyHint(lines: string[], line: number, name: string): string | undefined {
  if (!(STEP_KEYS as readonly string[]).includes(name)) return undefined;
  for (let n = line - 1; n >= 1; n--) {
    const m = /^( *)(- )?([\w-]+):/.exec(lines[n - 1] ?? "");
    if (!m || m[3] === name || !(STEP_KEYS as readonly string[]).includes(m[3])) continue;
    return `"${name}" on line ${line} is a key of the step: indent "${name}" ${
      column(m)
    } spaces, like "${m[3]}" on line ${n}.`;
  }
  return undefined;
}

/** The hint when the nearest key above `key` is its sibling but indented otherwise. */
function aboveKeyHint(
  lines: string[],
  line: number,
  key: KeyMatch,
  keyAt: (n: number) => KeyMatch | null,
): string | undefined {
  for (let n = line - 1; n >= 1; n--) {
    const above = keyAt(n);
    if (!above) continue;
    if (column(above) === column(key) || /:\s*(#.*)?$/.test(lines[n - 1])) return undefined;
    return stepKeyHint(lines, line, key[3]) ??
      `"${key[3]}" is indented ${column(key)} spaces and "${above[3]}" on line ${n} ${
        column(above)
      }: keys of one map line up; indent "${key[3]}" ${column(above)} spaces, like "${above[3]}".`;
  }
  return undefined;
}
