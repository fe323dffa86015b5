/**
 * A run where nothing ran: the flow files have problems, or `--filter` and
 * `--tag` selected no flow (a typo must not turn a red suite green). The
 * problems are printed, and every reporter still writes its report of a
 * run that sent nothing.
 *
 * @module
 */
import { plural } from "../../lib/_util/plural.ts";
import { suggest } from "../../lib/_util/suggest.ts";
import type { Problem } from "../../lib/model/errors.ts";
import type { RunResult } from "../../lib/model/result.ts";
import { formatProblems, style } from "../../lib/report/console.ts";
import type { Reporter } from "../../lib/report/reporter.ts";

/** The `file` of the problem that says a filter selected nothing. */
const FILTER = "--filter";

/**
 * The problem of a `--filter` or `--tag` that matched none of the
 * `checked` flow files.
 *
 * @example
 * ```ts
 * import { nothingSelected } from "./invalid.ts";
 * const [problem] = nothingSelected(["login"], "smoke", 3);
 * if (problem.message !== '--filter "login" and --tag "smoke" matched none of the 3 flow files, so nothing would run.') {
 *   throw new Error(problem.message);
 * }
 * ```
 */
export function nothingSelected(
  filter: readonly string[],
  tags: string | undefined,
  checked: number,
  tagsSeen: readonly string[] = [],
): Problem[] {
  const selectors = [
    ...(filter.length > 0 ? [`--filter ${filter.map((f) => `"${f}"`).join(", ")}`] : []),
    ...(tags !== undefined ? [`--tag "${tags}"`] : []),
  ].join(" and ");
  return [{
    file: FILTER,
    line: 0,
    column: 0,
    code: "no-match",
    message: `${selectors} matched none of the ${
      plural(checked, "flow file")
    }, so nothing would run.`,
    hint: filter.length > 0
      ? "Check the pattern: without *, ? or [...] it matches part of a flow's name or path; with them, the whole name, path or file name. flowrun run <path> --list shows what a run selects."
      : `${
        tagHint(tags ?? "", tagsSeen)
      }Check the tag names against the flows' tags: lists; flowrun run <path> --list shows what a run selects.`,
  }];
}

/** "Did you mean …?" for each word of a tag expression no flow carries, when one is close. */
function tagHint(expression: string, seen: readonly string[]): string {
  const words = expression.match(/[^\s()!,&|]+/g) ?? [];
  const meant = words
    .filter((w) => !["and", "or", "not"].includes(w.toLowerCase()) && !seen.includes(w))
    .map((w) => [w, suggest(w, seen)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined);
  if (meant.length > 0) {
    return `Did you mean ${meant.map(([w, s]) => `"${s}" for "${w}"`).join(", ")}? `;
  }
  return seen.length > 0
    ? `The flows carry ${seen.slice(0, 10).map((t) => `"${t}"`).join(", ")}${
      seen.length > 10 ? ", …" : ""
    }. `
    : "";
}

/**
 * The problems as printed: a selection that matched nothing as one error,
 * flow-file problems listed by file, then `checked` (validate's "N files
 * checked") or run's "nothing was sent".
 *
 * @example
 * ```ts
 * import { nothingSelected, problemsText } from "./invalid.ts";
 * const text = problemsText(nothingSelected([], "smoke", 1), false);
 * if (!text.startsWith('error[no-match]: --tag "smoke" matched none of the 1 flow file, ')) throw new Error(text);
 * ```
 */
export function problemsText(
  problems: readonly Problem[],
  color: boolean,
  checked?: string,
): string {
  const [first] = problems;
  return first.file === FILTER
    ? `error[${first.code}]: ${first.message}\n  hint: ${first.hint}\n`
    : formatProblems(problems as Problem[], style(color), checked);
}

/**
 * Drives reporters over a result that was not produced by running.
 *
 * @example
 * ```ts
 * import { replay } from "./invalid.ts";
 * import { invalidRunResult } from "../../lib/run/invalid_run.ts";
 * const problems = [{ file: "a.yaml", line: 1, column: 1, code: "bad", message: "Bad.", hint: "Fix." }];
 * const seen: string[] = [];
 * await replay({
 *   onRunStart: () => void seen.push("start"),
 *   onFlowEnd: (flow) => void seen.push(flow.file),
 *   onRunEnd: () => void seen.push("end"),
 * }, invalidRunResult({ run_id: "r", started_at: "", problems, files: ["a.yaml"] }));
 * if (seen.join() !== "start,a.yaml,end") throw new Error(seen.join());
 * ```
 */
export async function replay(reporter: Reporter, result: RunResult): Promise<void> {
  await reporter.onRunStart?.({
    run_id: result.run_id,
    runner_version: result.runner_version,
    started_at: result.started_at,
    files: result.flows.map((f) => f.file),
  });
  for (const flow of result.flows) await reporter.onFlowEnd?.(flow);
  await reporter.onRunEnd?.(result);
}
