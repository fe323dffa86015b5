/**
 * What a YAML slip in a value or a key most likely meant, from the line
 * itself: a value starting with a character YAML reserves (`*`, `&`, `@`, a
 * backtick) or with "#" (a comment), or holding ": ", a quote never closed,
 * a key given twice, a step that forgot its "- ". Each with the edit that makes the file load.
 *
 * @module
 */
import { LOOKBACK, type Slip } from "./yaml_lines.ts";

/**
 * Whether the key on line index `i` (written `prefix`) has a block value on
 * the lines after it: deeper lines, or a list at its own indent.
 */
function holdsBlock(lines: string[], i: number, prefix: string): boolean {
  const next = nextContent(lines, i + 1);
  if (next === undefined) return false;
  const indent = (l: string) => l.length - l.trimStart().length;
  return indent(next) > indent(prefix) ||
    indent(next) === indent(prefix) && next.trimStart().startsWith("- ") && !/^ *- /.test(prefix);
}

/** The first line from index `from` on that holds more than a comment. */
function nextContent(lines: string[], from: number): string | undefined {
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim() !== "" && !lines[i].trimStart().startsWith("#")) return lines[i];
  }
  return undefined;
}

/** A value on a line: what comes before it (indent, "- ", key) and the value, a comment cut off. */
const VALUE = /^( *(?:- )?(?:[\w.-]+: +)?)(\S.*?)(?:\s+#.*)?$/;

/** What YAML makes of a value that starts with each reserved character. */
const RESERVED: Record<string, string> = {
  "*": 'unquoted, YAML reads it as an alias (a reference to an "&" anchor)',
  "&": "unquoted, YAML reads it as an anchor (a name for the value after it)",
  "@": 'YAML reserves "@" at the start of an unquoted value',
  "`": "YAML reserves a backtick at the start of an unquoted value",
};

/**
 * `value` as a YAML double-quoted string, or single-quoted when it holds a
 * double quote or a backslash (which double quotes would escape).
 *
 * @example
 * ```ts
 * import { quoted } from "./yaml_slips.ts";
 * if (quoted("*") !== '"*"' || quoted('say "hi"') !== `'say "hi"'`) throw new Error();
 * ```
 */
export function quoted(value: string): string {
  return /["\\]/.test(value) ? `'${value.replaceAll("'", "''")}'` : `"${value}"`;
}

/**
 * The slip in a value or key that explains a syntax error (`code`, the
 * parser's `message`) on `line` of `lines`, or `undefined`.
 *
 * @example
 * ```ts
 * import { valueSlip } from "./yaml_slips.ts";
 * const slip = valueSlip(["auth:", "  scope: *"], 2, "BAD_ALIAS", "Alias cannot be an empty string");
 * if (slip?.hint !== 'Quote it: scope: "*"') throw new Error(slip?.hint);
 * ```
 */
export function valueSlip(
  lines: string[],
  line: number,
  code: string,
  message: string,
): Slip | undefined {
  if (code === "DUPLICATE_KEY") return duplicateSlip(lines, line);
  if (code === "MISSING_CHAR" && /quote/i.test(message)) return unclosedSlip(lines);
  return reservedSlip(lines[line - 1] ?? "", line) ?? colonSlip(lines[line - 1] ?? "", line) ??
    flowHashSlip(lines, line);
}

/**
 * A value starting with "#" inside `{ }` or `[ ]` (`{color: #fff}`): the
 * comment it starts hides the rest of the line, the closing bracket too, so
 * the parser trips on the line after it.
 */
function flowHashSlip(lines: string[], line: number): Slip | undefined {
  for (const n of [line, line - 1]) {
    const source = lines[n - 1] ?? "";
    const hash = source.search(/[\s{[,:]#/);
    if (hash < 0 || !/[{[]/.test(source.slice(0, hash))) continue;
    const fixed = source.replace(/(?<=[{[,:] *)#[^,}\]]*?(?= *[,}\]]| *$)/g, (v) => quoted(v));
    if (fixed === source) continue;
    const at = source.indexOf("#", hash);
    return {
      line: n,
      column: at + 1,
      message:
        'a value starting with "#" inside { } or [ ] must be quoted: unquoted, it starts a comment, which hides the rest of the line and its closing bracket',
      hint: `Quote it: ${fixed.trimStart()}`,
    };
  }
  return undefined;
}

/** A value starting with a character YAML reserves: quoted, it is the text written. */
function reservedSlip(source: string, line: number): Slip | undefined {
  const m = VALUE.exec(source);
  const first = m?.[2][0] ?? "";
  if (!m || !(first in RESERVED)) return undefined;
  const [before, value] = [m[1], m[2]];
  return {
    line,
    column: before.length + 1,
    message: `a value starting with "${first}" must be quoted to be text: ${RESERVED[first]}`,
    hint: `Quote it: ${before.trimStart()}${quoted(value)}`,
  };
}

/** An unquoted value holding ": ", which YAML reads as a key of a map inside it. */
function colonSlip(source: string, line: number): Slip | undefined {
  const m = /^( *(?:- )?[\w.-]+: +)([^\s"'{[|>].*?)(?:\s+#.*)?$/.exec(source);
  if (!m || !/: |:$/.test(m[2])) return undefined;
  const key = /([\w.-]+): +$/.exec(m[1])![1];
  return {
    line,
    column: m[1].length + 1,
    message: `the value of "${key}" holds ": ", which YAML reads as the start of another key`,
    hint: `Quote it: ${m[1].trimStart()}${quoted(m[2])}`,
  };
}

/** The first line whose quoted value opens a quote it never closes. */
function unclosedSlip(lines: string[]): Slip | undefined {
  for (const [i, source] of lines.entries()) {
    const m = /^( *(?:- )?(?:[\w.-]+: +)?)(["'])(.*)$/.exec(source);
    if (!m) continue;
    const [before, quote, rest] = [m[1], m[2], m[3]];
    const closes = quote === '"' ? /(^|[^\\])(\\\\)*"/.test(rest) : rest.includes("'");
    if (closes) continue;
    return {
      line: i + 1,
      column: before.length + 1,
      message: `the ${quote === '"' ? "double" : "single"} quote that opens the value on line ${
        i + 1
      } is never closed`,
      hint:
        `Close it at the end of the value: ${before.trimStart()}${quote}${rest.trimEnd()}${quote}`,
    };
  }
  return undefined;
}

/**
 * A key given twice in one map: the earlier one named. A step whose "- "
 * was forgotten repeats the previous step's `name`, and that is the fix.
 */
function duplicateSlip(lines: string[], line: number): Slip | undefined {
  const m = /^( *)([\w-]+):/.exec(lines[line - 1] ?? "");
  if (!m) return undefined;
  const [indent, key] = [m[1].length, m[2]];
  if (key === "name" && indent >= 2) {
    return {
      line,
      column: indent + 1,
      message: `the step on line ${line} has no "- ", so its keys repeat the step's before it`,
      hint: `A new step starts with "- ": write "${m[1].slice(2)}- name:" here.`,
    };
  }
  for (let n = line - 1; n >= Math.max(1, line - LOOKBACK); n--) {
    const above = /^( *)(- )?([\w-]+):/.exec(lines[n - 1]);
    const at = above ? above[1].length + (above[2]?.length ?? 0) : Infinity;
    if (above && at === indent && above[3] === key) {
      return {
        line,
        column: indent + 1,
        message: `"${key}" is given twice in one map, on line ${n} and line ${line}`,
        hint:
          `Each key may appear once in a map; remove or rename one: "${key}" is on line ${n} too.`,
      };
    }
    // A line left of the key, or the "- " that starts its map, is where the map begins.
    if (at < indent || (above?.[2] && at === indent)) break;
  }
  return undefined;
}

/**
 * Values written `&text` with nothing after them: YAML reads an anchor on
 * an empty value, so the key is silently null; quoted, it is the text.
 *
 * @example
 * ```ts
 * import { emptyAnchors } from "./yaml_slips.ts";
 * const [slip] = emptyAnchors(["vars:", "  scope: &read", "  b: 1"]);
 * if (slip?.hint !== 'Quote it: scope: "&read"' || slip.line !== 2) throw new Error(slip?.hint);
 * if (emptyAnchors(["a: &x", "  b: 1"]).length !== 0) throw new Error("an anchor on a block");
 * ```
 */
export function emptyAnchors(lines: string[]): Slip[] {
  const slips: Slip[] = [];
  for (const [i, source] of lines.entries()) {
    const m = /^( *(?:- )?[\w.-]+: +)&\S+\s*(#.*)?$/.exec(source);
    if (!m) continue;
    if (holdsBlock(lines, i, m[1])) continue;
    const slip = reservedSlip(source, i + 1)!;
    slips.push({ ...slip, message: `${slip.message}, and the value after it is empty` });
  }
  return slips;
}

/**
 * The problem of an alias (`*name`, at `offset` of `text`) with no anchor:
 * a name no anchor could have (`*.read`) was meant as text, and quoting it
 * is the fix; a plain one may be either.
 *
 * @example
 * ```ts
 * import { unknownAlias } from "./yaml_slips.ts";
 * const text = "scope: *.read\n";
 * if (unknownAlias(text, 7, ".read").hint !== 'Quote it: scope: "*.read"') throw new Error();
 * if (!unknownAlias("a: *base\n", 3, "base").hint.startsWith('Define it first with "&base"')) throw new Error();
 * ```
 */
export function unknownAlias(
  text: string,
  offset: number,
  name: string,
): { message: string; hint: string } {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const end = text.indexOf("\n", offset);
  const source = text.slice(start, end < 0 ? text.length : end);
  const slip = reservedSlip(source.replace(/\r$/, ""), 1);
  if (!slip) {
    return { message: `Unknown alias "*${name}".`, hint: `Define it first with "&${name}".` };
  }
  if (/^[\w-]+$/.test(name)) {
    return {
      message: `Unknown alias "*${name}".`,
      hint: `Define it first with "&${name}", or, to write the text, q${slip.hint.slice(1)}.`,
    };
  }
  return {
    message: `YAML syntax error: a value starting with "*" must be quoted to be text: ${
      RESERVED["*"]
    }, and no anchor "&${name}" is defined.`,
    hint: slip.hint,
  };
}

/**
 * Values written `#text` right after their key (`color: #fff`) with nothing
 * under the key: YAML reads a comment and leaves the value empty, but a
 * comment's "#" is followed by a space, so the text was meant. Any line
 * with `: #` is looked at, so the scan is skipped for a file without one.
 *
 * @example
 * ```ts
 * import { hashValues } from "./yaml_slips.ts";
 * const [slip] = hashValues("headers:\n  x-color: #fff\n".split("\n"));
 * if (slip?.hint !== 'Quote it: x-color: "#fff"') throw new Error(slip?.hint);
 * if (hashValues(["request: # the call", "  url: x"]).length !== 0) throw new Error();
 * ```
 */
export function hashValues(lines: string[]): Slip[] {
  const slips: Slip[] = [];
  for (const [i, source] of lines.entries()) {
    const m = /^( *(?:- )?([\w.-]+): +)(#\S.*?)\s*$/.exec(source);
    if (!m) continue;
    if (holdsBlock(lines, i, m[1])) continue;
    slips.push({
      line: i + 1,
      column: m[1].length + 1,
      message: `the value of "${m[2]}" is empty: after ": ", YAML reads "${m[3]}" as a comment`,
      hint: `Quote it: ${m[1].trimStart()}${quoted(m[3])}`,
    });
  }
  return slips;
}
