/**
 * The console's history block (`--history`): after the run, each flow whose
 * recent runs were not all passes, with its streak (newest last) and what
 * it says: a new failure, a long one, a flaky flow. Flows that passed every
 * time are counted in one line, so a large green suite stays short.
 *
 * @module
 */
import type { FlowResult } from "../model/result.ts";
import { plural } from "../_util/plural.ts";
import type { History } from "./history.ts";
import type { Style } from "./style.ts";
import { visible } from "./terminal.ts";

/** At most this many flows are listed; the rest are counted. */
const LISTED = 50;

/**
 * The history block of a run, or "" when no earlier report had its flows.
 *
 * @example
 * ```ts
 * import { formatHistory } from "./console_history.ts";
 * import { History, pastRun } from "./history.ts";
 * import { style } from "./style.ts";
 * const past = { run_id: "r1", started_at: "2026-01-01T00:00:00Z", flows: [{ file: "a.yaml", name: "a", status: "passed" }] };
 * const history = History.from([pastRun(past)], ["a.yaml"]);
 * const text = formatHistory([{ file: "a.yaml", name: "a", status: "failed" } as never], history, style(false));
 * if (!text.includes("✔✘  a.yaml · a  new failure: passed in the last run")) throw new Error(text);
 * ```
 */
export function formatHistory(flows: readonly FlowResult[], history: History, s: Style): string {
  if (history.runs.length === 0) return "";
  const lines: string[] = [];
  let steady = 0;
  let more = 0;
  for (const flow of flows) {
    const h = history.of(flow);
    if (!h) continue;
    if (/^✔+$/.test(h.streak)) {
      steady++;
      continue;
    }
    if (lines.length >= LISTED) {
      more++;
      continue;
    }
    const note = h.note
      ? `  ${h.note.startsWith("flaky") ? s.yellow(visible(h.note)) : s.red(visible(h.note))}`
      : "";
    lines.push(
      `  ${h.streak}  ${s.bold(visible(flow.file))} ${s.dim("·")} ${visible(flow.name)}${note}`,
    );
  }
  if (more > 0) {
    lines.push(`  ${s.dim(`and ${plural(more, "more flow")} with failures in their history`)}`);
  }
  if (steady > 0) lines.push(`  ${s.dim(`${plural(steady, "flow")} passed in every run read`)}`);
  const left = history.ignored > 0
    ? `; ${plural(history.ignored, "report")} of other suites left out`
    : "";
  const head = `History (${plural(history.runs.length, "earlier run")}, newest last${left}):`;
  return `${s.bold(head)}\n${lines.join("\n")}\n\n`;
}
