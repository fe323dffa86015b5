/**
 * The summary `convert curl` gives beside its flow, and the lines the CLI prints from it.
 *
 * @module
 */
import { plural } from "../_util/plural.ts";
import { UsageError } from "../model/errors.ts";
import { clipLine, noteLines } from "./summary_lines.ts";

/** What the conversion did, for the stderr summary. */
export interface CurlSummary {
  /** curl commands read. */
  commands: number;
  /** Steps written. */
  steps: number;
  /** Commands that are not curl's, by line: `line 3: export`. */
  skipped: string[];
  /** Options not carried, per step: `get_user (line 1): --digest`. */
  ignored: string[];
  /** Environment variables to set before running, in order of first use. */
  env: string[];
  /** What could not be carried, by step and line. */
  notes: string[];
}

/**
 * The few lines the CLI prints on stderr after converting.
 *
 * @example
 * ```ts
 * import { formatCurlSummary } from "./curl_summary.ts";
 * const text = formatCurlSummary({ commands: 2, steps: 2, skipped: ["line 1: export"], ignored: [], env: ["API_TOKEN"], notes: [] });
 * if (!text.startsWith("Converted 2 curl commands into 2 steps.") || !text.includes("API_TOKEN")) throw new Error(text);
 * ```
 */
export function formatCurlSummary(s: CurlSummary): string {
  const lines = [
    `Converted ${plural(s.commands, "curl command")} into ${plural(s.steps, "step")}.`,
  ];
  if (s.skipped.length > 0) {
    lines.push(
      `Skipped ${plural(s.skipped.length, "command")} that ${
        s.skipped.length === 1 ? "is" : "are"
      } not curl: ${s.skipped.slice(0, 10).join("; ")}${
        s.skipped.length > 10 ? `; and ${s.skipped.length - 10} more` : ""
      }.`,
    );
  }
  for (const line of s.ignored.slice(0, 50)) lines.push(`Ignored options: ${line}.`);
  if (s.ignored.length > 50) lines.push(`Ignored options in ${s.ignored.length - 50} more steps.`);
  lines.push(
    s.env.length > 0
      ? `Set before running: ${s.env.join(", ")}.`
      : "No environment variables are required.",
  );
  return [...lines.map(clipLine), ...noteLines(s.notes)].join("\n") + "\n";
}

/**
 * The error when nothing could be converted: no command, none of curl's, or
 * none that sends an http(s) request.
 *
 * @example
 * ```ts
 * import { nothingToConvert } from "./curl_summary.ts";
 * if (!nothingToConvert(3, 3).message.includes("no curl command")) throw new Error();
 * ```
 */
export function nothingToConvert(commands: number, skipped: number): UsageError {
  return new UsageError(
    "bad-curl",
    commands === 0
      ? "The input holds no command."
      : skipped === commands
      ? `The input holds no curl command (${
        plural(commands, "command")
      }, none starting with "curl").`
      : "No curl command in the input sends an http(s) request.",
    "Paste commands as the browser's \"Copy as cURL\" or an API's documentation writes them, one per line or joined with \\ line continuations.",
  );
}
