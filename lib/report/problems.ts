/**
 * Flow-file problems printed like compiler errors: grouped by file, the
 * position, code and message, the source line with the spot underlined, and
 * the hint. `run` prints them instead of running; `validate` prints them as
 * its whole output.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { plural, pluralWord } from "../_util/plural.ts";
import type { Style } from "./style.ts";
import { visible } from "./terminal.ts";

/** Problems printed at most: a thousand errors help nobody, and the rest are in --format json. */
const MAX_SHOWN_PROBLEMS = 100;

/** Characters of a source line shown around a problem: long generated lines get a window. */
const EXCERPT_WIDTH = 120;

/**
 * The part of a source line around `column`, with the column moved to match.
 * `excerpt` may itself be a window of the line starting at column `start`.
 */
function excerptWindow(
  excerpt: string,
  column: number,
  start = 1,
): { text: string; column: number } {
  const at = column - start + 1;
  const head = start > 1 ? "…" : "";
  if (excerpt.length <= EXCERPT_WIDTH) {
    return { text: `${head}${excerpt}`, column: at + head.length };
  }
  const from = Math.max(0, Math.min(at - 1 - 40, excerpt.length - EXCERPT_WIDTH));
  const to = from + EXCERPT_WIDTH;
  const lead = from > 0 || start > 1 ? "…" : "";
  const text = `${lead}${excerpt.slice(from, to)}${to < excerpt.length ? "…" : ""}`;
  return { text, column: at - from + lead.length };
}

/**
 * Formats problems like compiler errors, grouped by file: the position, the
 * code and message, the source line with the spot underlined, and the hint.
 *
 * @example
 * ```ts
 * import { formatProblems } from "./problems.ts";
 * import { style } from "./style.ts";
 * const text = formatProblems([{
 *   code: "unknown-key", message: 'Unknown key "captures" in step "a".', file: "a.yaml",
 *   line: 5, column: 5, length: 8, hint: 'Did you mean "capture"?', excerpt: "    captures: {}",
 * }], style(false));
 * if (!text.includes("a.yaml:5:5 error[unknown-key]") || !text.includes("^^^^^^^^")) throw new Error(text);
 * ```
 */
export function formatProblems(
  problems: readonly Problem[],
  s: Style,
  /** What follows the count on the closing line: `run` sends nothing, `validate` counts files. */
  outcome = "nothing was sent",
): string {
  const sorted = [...problems].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column
  );
  const out: string[] = [];
  for (const p of sorted.slice(0, MAX_SHOWN_PROBLEMS)) {
    // The file's own characters are shown escaped (a flow may hold terminal controls).
    out.push(
      `${s.bold(visible(`${p.file}:${p.line}:${p.column}`))} ${s.red(`error[${p.code}]`)}: ${
        visible(p.message)
      }`,
    );
    if (p.excerpt !== undefined) {
      const gutter = String(p.line).length;
      const { text, column } = excerptWindow(p.excerpt, p.column, p.excerptStart);
      const at = Math.max(0, Math.min(column - 1, text.length));
      const length = Math.max(1, Math.min(p.length ?? 1, text.length - at));
      const before = visible(text.slice(0, at));
      const marked = visible(text.slice(at, at + length));
      out.push(s.dim(`${p.line} |`) + ` ${before}${marked}${visible(text.slice(at + length))}`);
      // Tabs stay tabs under the line so the caret lands under the same character.
      out.push(
        s.dim(`${" ".repeat(gutter)} |`) +
          ` ${before.replace(/[^\t]/g, " ")}${s.red("^".repeat(Math.max(1, marked.length)))}`,
      );
    }
    if (p.hint) out.push(`  ${s.yellow("hint:")} ${visible(p.hint)}`);
    out.push("");
  }
  // A `too-many-problems` problem stands for the problems it counts, not for one more.
  const count = (list: readonly Problem[]) =>
    list.reduce((n, p) => n + (p.omitted === undefined ? 1 : p.omitted), 0);
  if (sorted.length > MAX_SHOWN_PROBLEMS) {
    const more = count(sorted.slice(MAX_SHOWN_PROBLEMS));
    out.push(
      `… and ${more} more ${
        pluralWord(more, "problem")
      } (the first ${MAX_SHOWN_PROBLEMS} are shown; flowrun validate --format json lists more).`,
      "",
    );
  }
  const files = new Set(problems.map((p) => p.file)).size +
    problems.reduce((n, p) => n + (p.omittedFiles ?? 0), 0);
  const n = count(problems);
  out.push(
    `${plural(n, "problem")} in ${plural(files, "file")}; ${outcome}.`,
  );
  return out.join("\n") + "\n";
}
