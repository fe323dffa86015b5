/**
 * What the console says of a re-run flow (`--retries`): a flaky one is
 * marked `⚠` and says on which run it passed, a broken one on how many it
 * failed; under either, one line per earlier run with where it failed; and
 * after the run, a recap of the flaky flows.
 *
 * @module
 */
import type { FlowResult } from "../model/result.ts";
import { plural } from "../_util/plural.ts";
import { eachStepFailure } from "./failures.ts";
import type { Style } from "./style.ts";
import { visible } from "./terminal.ts";

/** How many runs the flow was allowed: the first and its re-runs. */
const allowed = (flow: FlowResult) => (flow.retries ?? 0) + 1;

/**
 * The flow's mark and the words after its title, when it was re-run.
 *
 * @example
 * ```ts
 * import { rerunLabel } from "./console_rerun.ts";
 * import { style } from "./style.ts";
 * const flow = { file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 1, steps: [],
 *   flaky: true, retries: 2, attempts: [{ attempt: 1, status: "failed", started_at: "", duration_ms: 1, steps: [] }] };
 * const label = rerunLabel(flow as never, style(false));
 * if (label?.mark !== "⚠" || label.words !== "flaky (passed on attempt 2 of 3)") throw new Error(JSON.stringify(label));
 * ```
 */
export function rerunLabel(
  flow: FlowResult,
  s: Style,
): { mark: string; words: string } | undefined {
  if (!flow.attempts?.length) return undefined;
  const runs = flow.attempts.length + 1;
  if (flow.flaky) {
    return {
      mark: s.yellow("⚠"),
      words: s.yellow(`flaky (passed on attempt ${runs} of ${allowed(flow)})`),
    };
  }
  const all = runs === allowed(flow) ? `all ${runs}` : `${runs} of ${allowed(flow)}`;
  return { mark: "", words: s.red(`${flow.status} on ${all} attempts`) };
}

/**
 * One line per earlier run of a re-run flow: where it failed first.
 *
 * @example
 * ```ts
 * import { attemptLines } from "./console_rerun.ts";
 * import { style } from "./style.ts";
 * const step = { name: "get", status: "failed", duration_ms: 1, attempts: 1, line: 3, column: 5, captures: [],
 *   request: null, response: null, message: "status: expected 200, got 503", assertions: [] };
 * const flow = { file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 1, steps: [],
 *   flaky: true, retries: 1, attempts: [{ attempt: 1, status: "failed", started_at: "", duration_ms: 1, steps: [step] }] };
 * const [line] = attemptLines(flow as never, style(false));
 * if (line !== "attempt 1 ✘ a.yaml:3:5  get: status: expected 200, got 503") throw new Error(line);
 * ```
 */
export function attemptLines(flow: FlowResult, s: Style): string[] {
  const lines: string[] = [];
  for (const attempt of flow.attempts ?? []) {
    const run = { ...flow, status: attempt.status, steps: attempt.steps };
    const first = eachStepFailure([run]).next();
    const where = first.done
      ? visible(attempt.steps.find((st) => st.message)?.message ?? attempt.status)
      : `${s.bold(visible(`${first.value.file}:${first.value.line}:${first.value.column}`))}  ${
        visible(`${first.value.step.name}: ${first.value.reason}`)
      }`;
    lines.push(`${s.dim(`attempt ${attempt.attempt}`)} ${s.red("✘")} ${where}`);
  }
  return lines;
}

/**
 * The flaky flows of a run, one line each with how its first run failed;
 * empty when none was flaky.
 *
 * @example
 * ```ts
 * import { formatFlakyRecap } from "./console_rerun.ts";
 * import { style } from "./style.ts";
 * const flow = { file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 1, steps: [],
 *   flaky: true, retries: 1, attempts: [{ attempt: 1, status: "failed", started_at: "", duration_ms: 1, steps: [] }] };
 * const text = formatFlakyRecap([flow as never], style(false));
 * if (!text.startsWith("Flaky (passed on a re-run):\n  ⚠ a.yaml · a")) throw new Error(text);
 * ```
 */
export function formatFlakyRecap(flows: readonly FlowResult[], s: Style): string {
  const lines: string[] = [];
  for (const flow of flows) {
    if (!flow.flaky) continue;
    const runs = plural(flow.attempts?.length ?? 0, "failed attempt");
    lines.push(
      `  ${s.yellow("⚠")} ${s.bold(visible(flow.file))} ${s.dim("·")} ${visible(flow.name)} ${
        s.dim(`(${runs})`)
      }`,
      ...attemptLines(flow, s).map((line) => `      ${line}`),
    );
  }
  return lines.length === 0
    ? ""
    : `${s.yellow("Flaky (passed on a re-run):")}\n${lines.join("\n")}\n\n`;
}
