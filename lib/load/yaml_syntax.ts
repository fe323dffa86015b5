/**
 * A flow file's YAML syntax errors as problems: one per line (the parser
 * reports many echoes of one mistake), the first few listed and the rest
 * counted, each saying what the author most likely meant and the fix
 * (quoting values inside `{ }` or starting with `*`, lining up keys and
 * list items, the "- " a step forgot; `yaml_slips.ts`, `yaml_indent.ts`),
 * the parser's own words following as detail.
 *
 * @module
 */
import type { YAMLParseError } from "yaml";
import type { Loading } from "./context.ts";
import { indentSlip } from "./yaml_indent.ts";
import type { Slip } from "./yaml_lines.ts";
import { emptyAnchors, hashValues, valueSlip } from "./yaml_slips.ts";
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

/** A line's errors with the slip that explains them, when the lines show one. */
type Explained = [line: number, errors: YAMLParseError[], slip: Slip | undefined];

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
  const lines = explained(
    text,
    mergeFlowFollowOns(text, mergeDuplicateKeys(errorsByLine(ctx, text))),
  );
  const shown = lines.slice(0, MAX_SYNTAX_ERRORS);
  const unshown = lines.slice(MAX_SYNTAX_ERRORS).reduce((n, [, es]) => n + es.length, 0);
  for (const [i, entry] of shown.entries()) {
    syntaxProblem(ctx, text, entry, i === shown.length - 1 ? unshown : 0);
  }
}

/**
 * Adds a `yaml-syntax` problem for each value YAML reads as empty that was
 * meant as text: `scope: &read` (an anchor on nothing), `color: #fff` (a
 * comment). The parser reports neither, so both paths of the parse call
 * this; a file without `: &` or `: #` is not scanned.
 *
 * @example
 * ```ts
 * import { reportEmptyValues } from "./yaml_syntax.ts";
 * import { Loading } from "./context.ts";
 * const ctx = new Loading("a.yaml", {});
 * ctx.lines.addNewLine(0);
 * reportEmptyValues(ctx, "color: #fff\n");
 * if (ctx.problems[0]?.hint !== 'Quote it: color: "#fff"') throw new Error(JSON.stringify(ctx.problems));
 * ```
 */
export function reportEmptyValues(ctx: Loading, text: string): void {
  if (!text.includes(": &") && !text.includes(": #")) return;
  const lines = text.split("\n");
  for (
    const slip of [...emptyAnchors(lines), ...hashValues(lines)].sort((a, b) => a.line - b.line)
  ) {
    const offset = (ctx.lines.lineStarts[slip.line - 1] ?? 0) + slip.column - 1;
    ctx.problemAt("yaml-syntax", `YAML syntax error: ${slip.message}.`, offset, slip.hint);
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

/**
 * Each line's errors with the slip that explains them; the lines after it
 * that the same slip explains (a flow written as a list item trips the
 * parser on every line after it) are counted in its problem.
 */
function explained(text: string, lines: LineErrors[]): Explained[] {
  const sources = text.split("\n");
  const out: Explained[] = [];
  for (const [line, errors] of lines) {
    // Past the lines shown, errors are only counted: explaining them would cost a scan each.
    if (out.length > MAX_SYNTAX_ERRORS) {
      out.push([line, errors, undefined]);
      continue;
    }
    const e = errors[0];
    const parser = e.message.split("\n")[0].replace(/\.$/, "");
    const slip = quoteFlowValues(sources[line - 1] ?? "") !== undefined
      ? undefined
      : valueSlip(sources, line, e.code, parser) ?? indentSlip(sources, line, e.code);
    const previous = out.at(-1)?.[2];
    // Lines after a slip that it explains, with no slip of their own, are its echoes.
    const echo = previous && (slip?.line === previous.line && slip.hint === previous.hint ||
      line <= (previous.through ?? 0) && !(slip && previous.unexplainedOnly));
    if (echo) {
      out.at(-1)![1].push(...errors);
    } else out.push([line, errors, slip]);
  }
  return out;
}

/** The problem of one line's errors; `unshown` errors after it are counted in its message. */
function syntaxProblem(ctx: Loading, text: string, entry: Explained, unshown: number): void {
  const [line, lineErrors, slip] = entry;
  const e = lineErrors[0];
  const echoes = lineErrors.length - 1;
  const sameLine = lineErrors.every((x) => x.pos[0] === e.pos[0] || lineOf(ctx, x) === line);
  const parser = e.message.split("\n")[0].replace(/\.$/, "");
  const more = (detail?: string) => {
    const parts = [
      detail,
      echoes > 0 ? `${echoes} more ${sameLine ? "on this line" : "after it"}, caused by it` : "",
      unshown > 0 ? `${unshown} more syntax ${pluralWord(unshown, "error")} after it` : "",
    ].filter(Boolean).join("; ");
    return parts ? ` (${parts})` : "";
  };
  const source = text.split("\n", line)[line - 1] ?? "";
  const fixed = quoteFlowValues(source);
  const at = Math.min(e.pos[0], text.length);
  if (fixed) {
    ctx.problemAt(
      "yaml-syntax",
      `YAML syntax error: inside { } or [ ], a value holding "[", "]", "{", "}", ", " or ": " must be quoted${more()}.`,
      Math.max(at, brokenAt(ctx, line, source, fixed)),
      `Quote it: ${fixed.trim()}`,
    );
    return;
  }
  // What the author most likely meant leads; the parser's own words follow as detail.
  if (slip) {
    const offset = (ctx.lines.lineStarts[slip.line - 1] ?? 0) + slip.column - 1;
    ctx.problemAt(
      "yaml-syntax",
      `YAML syntax error: ${slip.message}${more(`the parser: "${parser}"`)}.`,
      Math.min(offset, text.length),
      slip.hint,
    );
    return;
  }
  ctx.problemAt(
    "yaml-syntax",
    `YAML syntax error: ${parser}${more()}.`,
    at,
    YAML_HINTS[e.code] ?? "Check the indentation and quoting around this position.",
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
