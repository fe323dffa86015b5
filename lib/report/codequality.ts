/**
 * The Code Climate JSON that GitLab reads as a code quality report
 * (`artifacts: reports: codequality`): each failed step or flow-file problem
 * as a finding on its file and line, which the merge request shows in its
 * widget and next to the changed lines.
 *
 * @module
 */
import type { RunResult } from "../model/result.ts";
import { eachStepFailure } from "./failures.ts";
import type { Reporter } from "./reporter.ts";

/** One finding, as GitLab expects it. */
export interface CodeQualityIssue {
  /** What failed, as the merge request widget shows it. */
  description: string;
  /** `flowrun/<problem code>`, or `flowrun/<failure kind or status>` for a failed step. */
  check_name: string;
  /** A stable id, so GitLab tells new findings from fixed ones. */
  fingerprint: string;
  /** `critical` for a flow-file problem (nothing ran), `major` for a failed step. */
  severity: "major" | "critical";
  /** The flow file and the line of the failed check, step or problem. */
  location: { path: string; lines: { begin: number } };
}

/** A stable id for a finding (FNV-1a, 64 bits as hex): the same failure has the same fingerprint. */
function fingerprint(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/**
 * The findings of a run: a `critical` one per flow-file problem (nothing ran),
 * a `major` one per step that failed or had an error.
 *
 * @example
 * ```ts
 * import { toCodeQuality } from "./codequality.ts";
 * const step = { name: "get", status: "failed", line: 3, column: 5, message: "status: expected 200, got 500.",
 *   assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }] };
 * const [issue] = toCodeQuality({ flows: [{ file: "flows/a.yaml", name: "A", status: "failed", steps: [step] }] } as never);
 * if (issue.location.path !== "flows/a.yaml" || issue.location.lines.begin !== 6) throw new Error();
 * if (issue.description !== "A › get: status: expected 200, got 500" || issue.severity !== "major") throw new Error();
 * ```
 */
export function toCodeQuality(result: RunResult): CodeQualityIssue[] {
  const issues: CodeQualityIssue[] = [];
  for (const p of result.problems ?? []) {
    if (p.line < 1) continue;
    issues.push({
      description: `${p.message} ${p.hint ?? ""}`.trim(),
      check_name: `flowrun/${p.code}`,
      fingerprint: fingerprint(`${p.file}\n${p.code}\n${p.message}`),
      severity: "critical",
      location: { path: p.file, lines: { begin: p.line } },
    });
  }
  // A run stopped by problems ran nothing: its flows' "steps" only restate the problems.
  const failed = issues.length > 0 ? [] : eachStepFailure(result.flows);
  for (const { flow, step, checks, file, line } of failed) {
    // Unlike the other reporters' reason, a step's own message loses its closing period.
    const description = `${flow.name} › ${step.name}: ${
      checks[0]?.message ?? step.message?.replace(/\.$/, "") ?? step.status
    }`;
    issues.push({
      description,
      check_name: `flowrun/${step.failure_kind ?? step.status}`,
      // Without the line: moving a flow's steps keeps its findings the same ones.
      fingerprint: fingerprint(`${file}\n${flow.name}\n${step.name}\n${description}`),
      severity: "major",
      location: { path: file, lines: { begin: line } },
    });
  }
  return issues;
}

/**
 * A reporter that writes the code quality report once the run has ended.
 *
 * @example
 * ```ts
 * import { codeQualityReporter } from "./codequality.ts";
 * let out = "";
 * const reporter = codeQualityReporter(async (text) => void (out = text));
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunEnd?.({ run_id: "r", runner_version: "0", started_at: "", duration_ms: 0,
 *   status: "passed", totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [] });
 * if (out !== "[]\n") throw new Error(out);
 * ```
 */
export function codeQualityReporter(write: (text: string) => Promise<void>): Reporter {
  return {
    async onRunEnd(result) {
      await write(JSON.stringify(toCodeQuality(result), null, 2) + "\n");
    },
  };
}
