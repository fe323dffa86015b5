/**
 * GitHub Actions output: each failure as an `::error` workflow command, which
 * GitHub shows inline on the flow file's line in the pull request and on the
 * run page, and the run as Markdown for `$GITHUB_STEP_SUMMARY`.
 *
 * @module
 */
import type { FlowResult, RunResult } from "../model/result.ts";
import { plural } from "../_util/plural.ts";
import { eachStepFailure, type StepFailure } from "./failures.ts";

/** GitHub shows at most 10 error annotations per step; a few more are kept for the log. */
export const MAX_ANNOTATIONS = 50;

/** Escapes a workflow command's message (`%`, CR and LF), as the runner expects. */
function data(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a workflow command's property value (also `:` and `,`). */
function property(text: string): string {
  return data(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * One `::error` line per failed step (at most {@linkcode MAX_ANNOTATIONS}),
 * at the failed check's position (or the step's), titled by flow and step;
 * the message holds each failed check and the request.
 *
 * @example
 * ```ts
 * import { githubAnnotations } from "./github.ts";
 * const step = { name: "get", status: "failed", duration_ms: 1, attempts: 1, line: 3, column: 5, captures: [],
 *   request: { method: "GET", url: "http://x.test/" }, response: { status: 500 },
 *   assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }] };
 * const [line] = githubAnnotations({ flows: [{ file: "flows/a.yaml", name: "A, b", status: "failed", steps: [step] }] } as never);
 * if (line !== "::error file=flows/a.yaml,line=6,col=7,title=A%2C b › get::status: expected 200, got 500%0AGET http://x.test/ → 500") throw new Error(line);
 * ```
 */
export function githubAnnotations(result: RunResult): string[] {
  const lines: string[] = [];
  let count = 0;
  for (const { flow, step, checks, ...at } of eachStepFailure(result.flows)) {
    if (count++ >= MAX_ANNOTATIONS) continue;
    // The message holds every failed check, not only the first.
    const reasons = checks.length > 0 ? checks.map((a) => a.message) : [at.reason];
    if (step.request) {
      const got = step.response ? String(step.response.status) : "no response";
      reasons.push(`${step.request.method} ${step.request.url} → ${got}`);
    }
    lines.push(
      `::error file=${property(at.file)},line=${at.line},col=${at.column},title=${
        property(`${flow.name} › ${step.name}`)
      }::${data(reasons.join("\n"))}`,
    );
  }
  lines.push(...flakyWarnings(result));
  if (count > MAX_ANNOTATIONS) {
    lines.push(
      `::warning title=flowrun::${
        data(`${count - MAX_ANNOTATIONS} more failures are not annotated; see the reports.`)
      }`,
    );
  }
  return lines;
}

/** What the reports say of a flaky flow: where its first run broke, and on which run it passed. */
interface Flaky {
  flow: FlowResult;
  failure: StepFailure | undefined;
  /** "passed on attempt 2 of 3" */
  runs: string;
}

/** The flaky flows of a run (passed on a re-run, `--retries`), in run order. */
function* flakyFlows(result: RunResult): Generator<Flaky> {
  for (const flow of result.flows) {
    if (!flow.flaky || !flow.attempts?.length) continue;
    const failure = eachStepFailure([{ ...flow, steps: flow.attempts[0].steps }]).next().value;
    const runs = `passed on attempt ${flow.attempts.length + 1} of ${(flow.retries ?? 0) + 1}`;
    yield { flow, failure: failure || undefined, runs };
  }
}

/**
 * A warning per flaky flow, at where its first failed run broke: the job
 * passes, and the check says which flow to fix.
 */
function flakyWarnings(result: RunResult): string[] {
  const lines: string[] = [];
  for (const { flow, failure, runs } of flakyFlows(result)) {
    if (lines.length >= MAX_ANNOTATIONS) break;
    const where = failure
      ? `file=${property(failure.file)},line=${failure.line},col=${failure.column},`
      : `file=${property(flow.file)},`;
    const why = failure ? `; attempt 1: ${failure.step.name}: ${failure.reason}` : "";
    lines.push(`::warning ${where}title=${property(`flaky: ${flow.name}`)}::${data(runs + why)}`);
  }
  return lines;
}

/** The job summary's table of flaky flows (the first 100), or nothing when there is none. */
function flakySection(result: RunResult): string[] {
  const lines: string[] = [];
  let count = 0;
  for (const { flow, failure, runs } of flakyFlows(result)) {
    if (count++ === 0) {
      lines.push(
        "",
        "Flaky (passed on a re-run):",
        "",
        "| Where | Flow | Runs | First failure |",
        "|---|---|---|---|",
      );
    }
    if (count > 100) continue;
    const at = failure ? `${failure.file}:${failure.line}:${failure.column}` : flow.file;
    const why = failure ? `${failure.step.name}: ${failure.reason}` : "";
    lines.push(`| ${codeCell(at)} | ${md(flow.name)} | ${md(runs)} | ${md(why)} |`);
  }
  if (count > 100) lines.push("", `…and ${count - 100} more flaky flows in the reports.`);
  return lines;
}

/** Escapes text for a Markdown table cell or line (no HTML, no table breaks). */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#~]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

/** Text as a Markdown code span: shown literally, so only backticks and line breaks need care. */
function code(text: string): string {
  return `\`${text.replaceAll("`", "'").replace(/\r\n?|\n/g, " ")}\``;
}

/** A code span in a table cell, where a `|` would end the cell even inside the span. */
function codeCell(text: string): string {
  return code(text).replaceAll("|", "\\|");
}

/**
 * The fence of a code block that holds `lines`: longer than any run of
 * backticks in them, so no line of a file's name or command can close it.
 */
function fenceFor(lines: readonly string[]): string {
  let longest = 2;
  for (const line of lines) {
    for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  }
  return "`".repeat(longest + 1);
}

/**
 * The run as Markdown for the job summary: the verdict and counts, then a
 * table of the failures with their positions (the first 100).
 *
 * @example
 * ```ts
 * import { githubSummary } from "./github.ts";
 * const c = { total: 2, passed: 2, failed: 0, error: 0, skipped: 0 };
 * const text = githubSummary({ run_id: "r1", status: "passed", duration_ms: 1500, flows: [],
 *   totals: { flows: c, steps: c, assertions: { total: 0, passed: 0, failed: 0 } } } as never);
 * if (!text.startsWith("### ✅ flowrun: 2 of 2 flows passed")) throw new Error(text);
 * ```
 */
export function githubSummary(result: RunResult, reproduce?: (file: string) => string): string {
  const { flows, steps } = result.totals;
  const ok = result.status === "passed";
  const lines = [
    `### ${ok ? "✅" : "❌"} flowrun: ${flows.passed} of ${plural(flows.total, "flow")} passed`,
    "",
    `Run ${code(result.run_id)} · ${
      (result.duration_ms / 1000).toFixed(2)
    } s · flows: ${flows.failed} failed, ${flows.error} errors, ${flows.skipped} skipped${
      flows.flaky ? `, ${flows.flaky} flaky` : ""
    } · steps: ${steps.passed}/${steps.total} passed`,
  ];
  if (result.problems && result.problems.length > 0) {
    // Nothing ran: the flow files' problems are what to fix.
    lines.push("", "| Where | Problem |", "|---|---|");
    for (const p of result.problems.slice(0, 100)) {
      lines.push(
        `| ${codeCell(`${p.file}:${p.line}:${p.column}`)} | ${
          md(`error[${p.code}]: ${p.message}`)
        } |`,
      );
    }
    return lines.join("\n") + "\n";
  }
  // Only what is shown is kept: the first hundred rows and twenty files.
  let count = 0;
  const files = new Set<string>();
  for (const { flow, step, file, line, column, reason } of eachStepFailure(result.flows)) {
    if (count++ === 0) lines.push("", "| Where | Flow › step | Why |", "|---|---|---|");
    if (files.size < 20) files.add(flow.file);
    if (count > 100) continue;
    lines.push(
      `| ${codeCell(`${file}:${line}:${column}`)} | ${md(`${flow.name} › ${step.name}`)} | ${
        md(reason)
      } |`,
    );
  }
  if (count > 0) {
    if (count > 100) lines.push("", `…and ${count - 100} more in the reports.`);
    if (reproduce) {
      // A command is written for the shell; it may span lines (a name with a line break).
      const commands = [...files].map(reproduce);
      const fence = fenceFor(commands);
      lines.push("", "<details><summary>Reproduce</summary>", "", `${fence}sh`);
      lines.push(...commands, fence, "", "</details>");
    }
  }
  lines.push(...flakySection(result));
  return lines.join("\n") + "\n";
}

/**
 * One `::error` line per flow-file problem (at most {@linkcode MAX_ANNOTATIONS}),
 * so a broken flow is marked on its line like a compiler error.
 *
 * @example
 * ```ts
 * import { githubProblemAnnotations } from "./github.ts";
 * const [line] = githubProblemAnnotations([{ code: "unknown-key", message: 'Unknown key "captures".',
 *   file: "a.yaml", line: 5, column: 5, hint: 'Did you mean "capture"?' }]);
 * if (line !== '::error file=a.yaml,line=5,col=5,title=error[unknown-key]::Unknown key "captures".%0ADid you mean "capture"?') throw new Error(line);
 * ```
 */
export function githubProblemAnnotations(
  problems: readonly {
    code: string;
    message: string;
    file: string;
    line: number;
    column: number;
    hint?: string;
  }[],
): string[] {
  return problems.slice(0, MAX_ANNOTATIONS).map((p) =>
    `::error file=${property(p.file)},line=${p.line},col=${p.column},title=${
      property(`error[${p.code}]`)
    }::${data(p.hint ? `${p.message}\n${p.hint}` : p.message)}`
  );
}
