/**
 * curl's own error line pasted under a command: what the docs' run of it
 * ended with. `curl: (22) The requested URL returned error: 404` is what
 * `-f` prints for a refusal: the docs show the server answering 404, which
 * the step checks (with the default below-400 check, the documented
 * refusal failed the run). `curl: (7) Failed to connect`, `(6) Could not
 * resolve host`, `(28)` a timeout, `(52)` an empty reply, `(56)` a broken
 * receive, `(35)`/`(60)` a TLS handshake or certificate refused: the docs
 * show the command getting no answer at all (a server stopped the line
 * before, a host that is not there), which no step can check and a live
 * server would answer otherwise, so the command is left out, with a note
 * naming the line, unless the docs paste an answer under it too (a head, a
 * JSON body: one came back). Any other code (`(26)` a file not read) changes
 * nothing.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import type { ShellCommand } from "./curl_shell.ts";
import { lastBreaks } from "./curl_error_owner.ts";

/** curl's error line, as printed, in a `#` comment or after a `$` prompt's command. */
const ERROR_LINE = /^\s*(?:#\s*)?curl: \((\d+)\) (.*?)\s*$/;

/** The exit codes whose line says no HTTP answer came back at all. */
const NO_ANSWER = new Set([6, 7, 28, 35, 52, 56, 60]);

/** One command as `convert curl` built it: its records and the notes it shares. */
export interface OutcomeCommand {
  command: ShellCommand;
  records: CurlRecord[];
  notes: string[];
}

/** The error lines the text holds: their line (1-based), code and words. */
function errorLines(text: string): { line: number; code: number; words: string }[] {
  const found: { line: number; code: number; words: string }[] = [];
  text.split("\n").forEach((line, i) => {
    const m = ERROR_LINE.exec(line);
    if (m) found.push({ line: i + 1, code: Number(m[1]), words: m[2] });
  });
  return found;
}

/** The command's last line (0-based): its first and those its `\` carries on. */
function lastLine(lines: readonly string[], start: number): number {
  let end = start;
  while (end + 1 < lines.length && /\\\s*$/.test(lines[end])) end++;
  return end;
}

/**
 * Reads each curl error line into the command above it: `(22)`'s status into
 * its last record (unless a pasted head gave one), a no-answer line leaves the
 * command out (no records) with a note. Returns how many commands each changed.
 *
 * @example
 * ```ts
 * import { curlErrorLines } from "./curl_error_line.ts";
 * const record = { url: new URL("http://a.test/k"), setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * const built = [{ command: { words: ["curl"], line: 1, column: 1, notes: [] }, records: [{ record } as any], notes: [] }];
 * curlErrorLines("curl -f http://a.test/k\ncurl: (22) The requested URL returned error: 404\n", built);
 * if ((record as { status?: number }).status !== 404) throw new Error();
 * ```
 */
export function curlErrorLines(
  text: string,
  built: OutcomeCommand[],
): { refused: number; leftOut: number } {
  const counts = { refused: 0, leftOut: 0 };
  const seen = new Set<OutcomeCommand>();
  const lines = text.split("\n");
  // A condition, a hedge, a heading or a rule between them: another case's line (curl_error_owner.ts).
  const breaks = lastBreaks(lines);
  const ends = new Map<OutcomeCommand, number>();
  const endOf = (b: OutcomeCommand) =>
    ends.get(b) ?? ends.set(b, lastLine(lines, b.command.line - 1)).get(b)!;
  let at = -1; // The last command that starts above the error line: both go down the text.
  for (const error of errorLines(text)) {
    while (at + 1 < built.length && built[at + 1].command.line < error.line) at++;
    const owner = built[at];
    if (!owner || seen.has(owner) || owner.records.length === 0) continue;
    if (breaks[error.line - 2] > endOf(owner)) continue;
    seen.add(owner);
    const said = `curl: (${error.code}) ${error.words}`;
    const status = Number(/\berror: ([45]\d\d)\b/.exec(error.words)?.[1] ?? 0);
    const record = owner.records.at(-1)!.record;
    if (error.code === 22 && status > 0 && record.status === undefined) {
      record.status = status;
      counts.refused++;
      owner.notes.push(
        `the docs print "${said}" under it (line ${error.line}): the server refused it, so the step checks ${status}, as documented.`,
      );
    } else if (NO_ANSWER.has(error.code) && record.status === undefined && !record.hasJson) {
      // A head or an answer pasted beside it shows one came back: the line is another run's.
      owner.records = [];
      counts.leftOut++;
      owner.notes.push(
        `the docs print "${said}" under it (line ${error.line}): it got no answer there (no server, or none reached), which no step can check: it was left out.`,
      );
    }
  }
  return counts;
}
