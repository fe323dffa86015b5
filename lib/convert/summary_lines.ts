/**
 * A converter's summary kept readable whatever the input: a command with
 * 100,000 nested `$(` gave a note per level (14 MB on stderr), and a 1 MB
 * option or URL was quoted whole. Lines are capped in number and in length,
 * and the summary says how much was left out.
 *
 * @module
 */
import { thousands } from "../_util/thousands.ts";

/** The longest summary line written; a longer one is cut, saying how much more it held. */
export const MAX_SUMMARY_LINE = 500;

/** The most notes a summary lists; the rest are counted. */
export const MAX_SUMMARY_NOTES = 50;

/**
 * `line` cut to {@linkcode MAX_SUMMARY_LINE} characters, its end replaced by
 * a count of what was left out.
 *
 * @example
 * ```ts
 * import { clipLine } from "./summary_lines.ts";
 * if (clipLine("short") !== "short") throw new Error();
 * if (!clipLine("x".repeat(10_000)).endsWith("… (9,500 more characters)")) throw new Error();
 * ```
 */
export function clipLine(line: string): string {
  if (line.length <= MAX_SUMMARY_LINE) return line;
  const more = thousands(line.length - MAX_SUMMARY_LINE);
  return `${line.slice(0, MAX_SUMMARY_LINE)}… (${more} more characters)`;
}

/**
 * The `note: …` lines of a summary: the first {@linkcode MAX_SUMMARY_NOTES},
 * each clipped, then how many more there were.
 *
 * @example
 * ```ts
 * import { noteLines } from "./summary_lines.ts";
 * const lines = noteLines(Array.from({ length: 60 }, (_, i) => `n${i}`));
 * if (lines.length !== 51 || lines[50] !== "note: and 10 more notes like these.") throw new Error();
 * ```
 */
export function noteLines(notes: readonly string[]): string[] {
  const out = notes.slice(0, MAX_SUMMARY_NOTES).map((n) => clipLine(`note: ${n}`));
  const more = notes.length - MAX_SUMMARY_NOTES;
  if (more > 0) out.push(`note: and ${thousands(more)} more notes like these.`);
  return out;
}

/** The longest quoted value a message keeps whole. */
const MAX_QUOTED = 200;

/**
 * `message` with each double-quoted value longer than 200 characters cut,
 * saying how long it was: a 200 KB `$ref` was quoted twice in one error.
 *
 * @example
 * ```ts
 * import { clipQuoted } from "./summary_lines.ts";
 * const out = clipQuoted(`The $ref "${"#/a".repeat(1_000)}" points to nothing.`);
 * if (!out.endsWith('… (3,000 characters)" points to nothing.') || out.length > 260) throw new Error(out);
 * ```
 */
export function clipQuoted(message: string): string {
  return message.replace(
    new RegExp(`"([^"]{${MAX_QUOTED + 1},})"`, "g"),
    (_m, value: string) =>
      `"${value.slice(0, MAX_QUOTED)}… (${thousands(value.length)} characters)"`,
  );
}
