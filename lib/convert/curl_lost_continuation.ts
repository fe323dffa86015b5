/**
 * A command whose `\` the docs lost: `curl -XPOST '…/write?db=mydb'` with
 * `--data-binary '…'` on the next line, `curl "…/buckets"` over an indented
 * `-H '…'`. Read as shell, the option line is a second command that fails
 * (no program is called `--data-binary`) and the curl goes out without it:
 * a write with no body, answered 204 with nothing written. A line starting
 * with one of curl's own options, right under the last line of a curl
 * command, carries that command on, as the missing `\` would have.
 *
 * @module
 */
import type { ShellCommand } from "./curl_shell.ts";
import { QUIET, QUIET_SHORT, SHORT, TAKES_VALUE } from "./curl_option_table.ts";
import { isCurlHeading } from "./curl_heading.ts";

/**
 * Whether a command's words run curl (after `$`, assignments, `sudo`, `time`…).
 *
 * @example
 * ```ts
 * import { runsCurl } from "./curl_lost_continuation.ts";
 * if (!runsCurl(["$", "TOKEN=x", "curl", "http://a.test/"]) || runsCurl(["echo", "curl"])) throw new Error();
 * ```
 */
export function runsCurl(words: readonly string[]): boolean {
  const typed = words[0] === "$" ? words.slice(1) : words;
  const first = typed.find((w) =>
    !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !/^(sudo|time|noglob|command|exec)$/.test(w)
  );
  return /^curl(\.exe)?$/i.test(first?.split(/[\\/]/).at(-1) ?? "") && !isCurlHeading(typed);
}

/**
 * Whether `word` is one of curl's options: a long one it knows (`--data-binary`,
 * `--header`), or a short one (`-H`, `-d`, `-XPOST`).
 *
 * @example
 * ```ts
 * import { isCurlOption } from "./curl_lost_continuation.ts";
 * if (!isCurlOption("--data-binary") || !isCurlOption("-H") || !isCurlOption("-XPOST")) throw new Error();
 * if (isCurlOption("--verbose-ish") || isCurlOption("-") || isCurlOption("--")) throw new Error();
 * ```
 */
export function isCurlOption(word: string): boolean {
  const long = /^--([a-z][a-z0-9-]*)(?:=.*)?$/s.exec(word);
  if (long) return TAKES_VALUE.has(long[1]) || QUIET.has(long[1]) || BARE_LONG.has(long[1]);
  const short = /^-([A-Za-z0-9#:])/.exec(word);
  return short !== null && (SHORT[short[1]] !== undefined || QUIET_SHORT[short[1]] !== undefined);
}

/** Long options that take no value and change the request (the others are in the tables). */
const BARE_LONG = new Set([
  "compressed",
  "data-raw",
  "get",
  "globoff",
  "head",
  "include",
  "insecure",
  "location",
  "location-trusted",
  "json",
]);

/**
 * The commands with each option line joined to the curl command right above
 * it: `lines` is the text the commands were split from. A command joins
 * only when it starts with a curl
 * option, the line above it is not blank, and the command before it is a
 * curl command with no input of its own (no here-document, no pipe).
 *
 * @example
 * ```ts
 * import { joinLostContinuations } from "./curl_lost_continuation.ts";
 * const cmd = (words: string[], line: number) => ({ words, line, column: 1, notes: [] });
 * const lines = ["curl -XPOST http://a.test/w", "--data-binary 'a v=1'", "", "-H 'X: 1'"];
 * const out = joinLostContinuations(
 *   [cmd(["curl", "-XPOST", "http://a.test/w"], 1), cmd(["--data-binary", "a v=1"], 2), cmd(["-H", "X: 1"], 4)],
 *   lines,
 * );
 * if (out.length !== 2 || out[0].words.length !== 5) throw new Error(JSON.stringify(out));
 * ```
 */
export function joinLostContinuations(
  commands: ShellCommand[],
  lines: readonly string[],
): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const command of commands) {
    const above = out.at(-1);
    const joins = above !== undefined && isCurlOption(command.words[0] ?? "") &&
      command.line > above.line && (lines[command.line - 2] ?? "").trim() !== "" &&
      runsCurl(above.words) && above.stdin === undefined && above.pipedFrom === undefined &&
      !above.background && command.pipedFrom === undefined;
    if (joins) {
      out[out.length - 1] = {
        ...above,
        words: [...above.words, ...command.words],
        notes: [...above.notes, ...command.notes],
        ...(command.stdin !== undefined ? { stdin: command.stdin } : {}),
        ...(command.background ? { background: true } : {}),
      };
    } else out.push(command);
  }
  return out;
}
