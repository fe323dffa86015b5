/**
 * Reading a flow file's YAML: size and depth limits before parsing, one
 * problem per line with syntax errors (with the quoting fix for values inside
 * `{ }`), alias limits, and numbers JSON can carry.
 *
 * @module
 */
import type { CST, Document, YAMLParseError } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { yamlEngine } from "./yaml_engine.ts";
import type { Problem } from "../model/errors.ts";
import { MAX_ALIAS_EXPANSION, MAX_DEPTH, MAX_FILE_BYTES } from "../model/limits.ts";
import { checkAliases, parseBounded, tooDeepAt } from "./yaml_limits.ts";
import type { Loading } from "./context.ts";
import { fastParse } from "./fast_yaml.ts";

/** YAML syntax errors reported per file: past the first few they are mostly echoes of the first. */
export const MAX_SYNTAX_ERRORS = 5;

/** Hints for the YAML parser's error codes. */
export const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: "Each key may appear once in a map; remove or rename one.",
  TAB_AS_INDENT: "Indent with spaces, not tabs.",
  MULTIPLE_DOCS: "Put one flow in each file; remove the --- separator.",
  MISSING_CHAR: "Close the quote or bracket that starts before this position.",
  BAD_INDENT: "Align the lines of this block with the same indentation.",
  BAD_DQ_ESCAPE: "Inside double quotes, write a backslash as \\\\, or use single quotes.",
};

/**
 * A line with its unquoted values that break a YAML flow collection (`{ }`
 * or `[ ]`) quoted: JSONPaths with brackets, `${…}` expressions, text with
 * ", " or ": ". `undefined` when the line has no such value.
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

/** Composes the parser's syntax tree into one document, as `parseDocument` does. */
export function compose(tokens: CST.Token[], length: number): Document {
  const { Composer, YAMLParseError } = yamlEngine.get();
  const composer = new Composer({
    uniqueKeys: true,
    merge: true,
    // Integers as BigInt first, so one past 2^53 is caught, not silently rounded.
    intAsBigInt: true,
  });
  let doc: Document | undefined;
  for (const next of composer.compose(tokens, true, length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          "MULTIPLE_DOCS",
          "Source contains multiple documents",
        ),
      );
      break;
    }
  }
  return doc!;
}

/** A size in MiB for messages: `10 MiB`, `12.5 MiB`. */
export function mebibytes(n: number): string {
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/**
 * The problem of a flow file larger than {@linkcode MAX_FILE_BYTES}, found
 * before it is parsed (for a text, its length in UTF-16 code units counts).
 *
 * @example
 * ```ts
 * import { fileTooLarge } from "./yaml.ts";
 * const problem = fileTooLarge("big.yaml", 50 * 1024 * 1024);
 * if (problem.code !== "file-too-large" || !problem.message.includes("50 MiB")) throw new Error();
 * ```
 */
export function fileTooLarge(file: string, size: number): Problem {
  return {
    code: "file-too-large",
    message: `The flow file is ${mebibytes(size)} (${size} bytes), more than the ${
      mebibytes(MAX_FILE_BYTES)
    } a flow file may be.`,
    file,
    line: 1,
    column: 1,
    hint:
      "Split it into several flow files: a folder of flows runs as one set. Shared values can go in vars or anchors.",
  };
}

/**
 * Turns the parser's BigInt integers back into numbers, and reports a
 * number JSON cannot carry as written: an integer past 2^53 would silently
 * become another number, and an infinite or NaN one (`.inf`, `1e400`)
 * would be sent as null.
 */
export function exactNumbers(ctx: Loading): boolean {
  let exact = true;
  const stack: unknown[] = [ctx.doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      if (typeof node.value === "bigint") {
        const n = Number(node.value);
        if (Number.isSafeInteger(n)) {
          node.value = n;
          continue;
        }
        exact = false;
        ctx.problem(
          "out-of-range",
          `The integer ${node.value} is too large to keep exactly (past 2^53); it would be sent as ${n}.`,
          node,
          `Quote it to send it as text: "${node.value}".`,
        );
      } else if (typeof node.value === "number" && !Number.isFinite(node.value)) {
        exact = false;
        const written = node.source ?? String(node.value);
        ctx.problem(
          "out-of-range",
          `The number ${written} is not a finite number; JSON cannot carry it (it would be sent as null).`,
          node,
          `Quote it to send it as text: "${written}".`,
        );
      }
    } else if (isMap(node)) {
      for (const pair of node.items) stack.push(pair.key, pair.value);
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return exact;
}

/**
 * Parses the file's YAML into `ctx.doc`, adding a problem for every
 * reason it cannot be read (size, depth, syntax, aliases, numbers); `true`
 * when the document can be read as a flow.
 */
export function readYaml(ctx: Loading, text: string): boolean {
  ctx.text = text;
  // Checked before parsing: a 50 MB flow exhausted memory after 100 s.
  if (text.length > MAX_FILE_BYTES) {
    ctx.problems.push(fileTooLarge(ctx.file, text.length));
    return false;
  }
  // Most flow files keep to plain YAML that a fast path reads in a fraction of the time;
  // it builds the same nodes and ranges, and leaves anything else to the full parser.
  const fast = fastParse(text);
  if (fast) {
    for (const start of fast.lineStarts) ctx.lines.addNewLine(start);
    ctx.doc = fast.doc;
    return exactNumbers(ctx);
  }
  // The parser builds its syntax tree without recursion; the composer that turns it into
  // nodes recurses per level, so the depth is measured on the tree before composing.
  const parsed = parseBounded(text, ctx.lines.addNewLine, MAX_DEPTH);
  const tokens: CST.Token[] = "tokens" in parsed ? parsed.tokens : [];
  const deep = "tooDeepAt" in parsed ? parsed.tooDeepAt : tooDeepAt(tokens, MAX_DEPTH);
  if (deep !== undefined) {
    ctx.problemAt(
      "yaml-too-deep",
      `The YAML nests more than ${MAX_DEPTH} levels deep here.`,
      deep,
      "A flow never needs that much nesting: flatten the value.",
    );
    return false;
  }
  ctx.doc = compose(tokens, text.length);
  // One problem per line with YAML errors: the parser reports many echoes of one mistake
  // (an unquoted "[" inside { } gave hundreds); past a few lines, the rest are counted.
  const errors = ctx.doc.errors;
  const byLine = new Map<number, YAMLParseError[]>();
  for (const e of errors) {
    const at = Math.min(e.pos[0], text.length);
    const line = ctx.lines.lineStarts.length > 0 ? ctx.lines.linePos(at).line : 1;
    const list = byLine.get(line);
    if (list) list.push(e);
    else byLine.set(line, [e]);
  }
  // A duplicate key on the lines right after another is the same mistake (a step without
  // its "- " repeats every key of the step before it).
  const merged: [number, YAMLParseError[]][] = [];
  for (const [line, lineErrors] of byLine) {
    const previous = merged.at(-1);
    if (
      previous && lineErrors.every((e) => e.code === "DUPLICATE_KEY") &&
      previous[1].every((e) => e.code === "DUPLICATE_KEY")
    ) previous[1].push(...lineErrors);
    else merged.push([line, lineErrors]);
  }
  const lines = merged;
  const shown = lines.slice(0, MAX_SYNTAX_ERRORS);
  const unshown = lines.slice(MAX_SYNTAX_ERRORS).reduce((n, [, es]) => n + es.length, 0);
  for (const [i, [line, lineErrors]] of shown.entries()) {
    const e = lineErrors[0];
    const echoes = lineErrors.length - 1;
    const sameLine = lineErrors.every((x) => x.pos[0] === e.pos[0] || lineOf(ctx, x) === line);
    const more = [
      echoes > 0 ? `${echoes} more ${sameLine ? "on this line" : "after it"}, caused by it` : "",
      i === shown.length - 1 && unshown > 0
        ? `${unshown} more syntax error${unshown === 1 ? "" : "s"} after it`
        : "",
    ].filter(Boolean).join("; ");
    const source = text.split("\n", line)[line - 1] ?? "";
    const fixed = quoteFlowValues(source);
    ctx.problemAt(
      "yaml-syntax",
      fixed
        ? `YAML syntax error: inside { } or [ ], a value holding "[", "]", "{", "}", ", " or ": " must be quoted${
          more ? ` (${more})` : ""
        }.`
        : `YAML syntax error: ${e.message.split("\n")[0].replace(/\.$/, "")}${
          more ? ` (${more})` : ""
        }.`,
      Math.min(e.pos[0], text.length),
      fixed ? `Quote it: ${fixed.trim()}` : syntaxHint(text, line, e) ?? YAML_HINTS[e.code] ??
        "Check the indentation and quoting around this position.",
    );
  }
  if (ctx.problems.length > 0) return false;
  const aliases = checkAliases(ctx.doc, MAX_ALIAS_EXPANSION, MAX_DEPTH);
  ctx.targets = aliases.targets;
  if (aliases.problem) {
    const { kind, alias } = aliases.problem;
    const name = `"*${(alias as { source?: string }).source}"`;
    if (kind === "too-deep") {
      ctx.problem(
        "yaml-too-deep",
        `With the alias ${name} expanded, the YAML nests more than ${MAX_DEPTH} levels deep here.`,
        alias,
        "A flow never needs that much nesting: use fewer aliases of nested values.",
      );
    } else {
      ctx.problem(
        "yaml-too-large",
        kind === "cycle"
          ? `The alias ${name} refers to the value it is part of, so it never ends.`
          : `With the alias ${name}, aliases add more than ${
            MAX_ALIAS_EXPANSION.toLocaleString("en-US")
          } YAML nodes to the flow (each use copies its anchor's whole value).`,
        alias,
        kind === "cycle"
          ? "An anchor's value cannot contain an alias of itself; repeat the value instead."
          : "Aliases of values that themselves use aliases multiply; repeat the values instead.",
      );
    }
    return false;
  }
  return exactNumbers(ctx);
}

function lineOf(ctx: Loading, e: YAMLParseError): number {
  return ctx.lines.lineStarts.length > 0 ? ctx.lines.linePos(e.pos[0]).line : 1;
}

/**
 * A hint from the lines themselves for the two commonest YAML slips: a key
 * indented unlike its siblings, and a step whose "- " was forgotten (its keys
 * then repeat the previous step's).
 */
function syntaxHint(text: string, line: number, e: YAMLParseError): string | undefined {
  const lines = text.split("\n", line + 1);
  const keyAt = (n: number) => /^( *)(- )?([\w-]+):/.exec(lines[n - 1] ?? "");
  const column = (m: RegExpExecArray) => m[1].length + (m[2]?.length ?? 0);
  const key = keyAt(line);
  if (e.code === "DUPLICATE_KEY" && key?.[3] === "name" && !key[2] && key[1].length >= 2) {
    return `A new step starts with "- ": write "${key[1].slice(2)}- name:" here.`;
  }
  if (!key || e.code === "DUPLICATE_KEY" || e.code === "TAB_AS_INDENT") return undefined;
  // The parser often stops at the key before the one that is off: compare with both neighbours.
  const next = keyAt(line + 1);
  const holdsValue = !/:\s*(#.*)?$/.test(lines[line - 1]);
  if (next && !next[2] && holdsValue && column(next) > column(key)) {
    return `"${next[3]}" on line ${line + 1} is indented ${column(next)} spaces and "${key[3]}" ${
      column(key)
    }: keys of one map line up; indent "${next[3]}" like "${key[3]}".`;
  }
  for (let n = line - 1; n >= 1; n--) {
    const above = keyAt(n);
    if (!above) continue;
    if (column(above) === column(key) || /:\s*(#.*)?$/.test(lines[n - 1])) return undefined;
    return `"${key[3]}" is indented ${column(key)} spaces and "${above[3]}" on line ${n} ${
      column(above)
    }: keys of one map line up; indent "${key[3]}" like "${above[3]}".`;
  }
  return undefined;
}
