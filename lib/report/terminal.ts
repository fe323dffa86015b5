/**
 * Text a target or a flow file controls (response bodies and headers, URLs,
 * flow and step names, messages quoting them) must not act on the terminal or
 * the CI system reading the console: no escape sequences, no bare carriage
 * returns that overwrite a line, no bidirectional overrides that reorder it,
 * and no line that a CI runner would take as a workflow command
 * (`::add-mask::`, `::error::`, `##vso[…]`, `##[group]`). Such text is shown
 * visibly escaped instead.
 *
 * @module
 */

/**
 * C0 controls but tab, DEL, C1 controls, bidirectional controls, and the line
 * and paragraph separators (some terminals break lines on them).
 */
const CONTROL =
  // deno-lint-ignore no-control-regex -- matching control characters is the point.
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\x1b": "\\e" };

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ??
    (code < 0x100
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`);
}

/**
 * One line of text as it may be shown: control characters, line breaks and
 * bidirectional controls written as visible escapes (`\e`, `\n`, `\r`,
 * `\x07`, `\u202e`).
 *
 * @example
 * ```ts
 * import { visible } from "./terminal.ts";
 * if (visible("ok\x1b[2J\r\nnext") !== "ok\\e[2J\\r\\nnext") throw new Error(visible("ok\x1b[2J\r\nnext"));
 * if (visible("plain text, é 🙂") !== "plain text, é 🙂") throw new Error();
 * if (visible("a\u061cb") !== "a\\u061cb") throw new Error(visible("a\u061cb"));
 * ```
 */
export function visible(text: string): string {
  return text.replace(CONTROL, escape);
}

/** Lines a CI runner would read as a command: GitHub `::cmd::` (after any indentation), Azure `##vso[`/`##[`. */
const COMMAND_LINE = /^(\s*)(::|##(?:vso)?\[)/gm;
const AZURE_ANYWHERE = /##vso\[/g;

/**
 * Makes console output inert for CI runners: a line that starts (after
 * indentation, which GitHub Actions ignores) with `::` or `##[`, or that holds
 * `##vso[` anywhere, gets its first character escaped as `\x3a` or `\x23`, so
 * the runner shows it instead of running it. Other lines are unchanged.
 *
 * @example
 * ```ts
 * import { inertForCi } from "./terminal.ts";
 * const out = inertForCi("ok\n  ::add-mask::x\nbody ##vso[task.setvariable]y\n");
 * if (out !== "ok\n  \\x3a:add-mask::x\nbody \\x23#vso[task.setvariable]y\n") throw new Error(out);
 * ```
 */
export function inertForCi(text: string): string {
  if (!text.includes("::") && !text.includes("##")) return text;
  return text
    .replace(
      COMMAND_LINE,
      (_, indent: string, start: string) =>
        `${indent}${start[0] === ":" ? "\\x3a" : "\\x23"}${start.slice(1)}`,
    )
    .replace(AZURE_ANYWHERE, "\\x23#vso[");
}
