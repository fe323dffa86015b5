/**
 * JUnit XML for CI test views (GitLab, GitHub actions such as
 * dorny/test-reporter and mikepenz/action-junit-report, Jenkins): a
 * `<testsuite>` per flow and a `<testcase>` per step.
 *
 * The output stays inside the strict Jenkins JUnit XSD, the narrowest format
 * those tools all accept, so nothing outside it is written: run-level data
 * (run id, runner version) goes into each suite's `<properties>` because
 * `<testsuites>` may not carry it, and skipped steps give their reason as the
 * text of `<skipped>` because it may not have attributes.
 *
 * The XML is written by hand: the structure is fixed and small, and only the
 * escaping needs care (see {@linkcode xmlText} and {@linkcode xmlAttr}).
 *
 * @module
 */
import {
  type AssertionResult,
  countStatuses,
  type FlowResult,
  type RunResult,
  type StepResult,
} from "../model/result.ts";
import type { Reporter } from "./reporter.ts";
import {
  renderWhole,
  type ReportFormat,
  type RunInfo,
  type Spool,
  streamedReporter,
} from "./streamed.ts";

/**
 * Anything outside XML 1.0 `Char`. With the `u` flag a lone surrogate is one
 * code point outside every allowed range, so it matches too.
 */
const ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Every illegal code point is below U+10000, so four hex digits always fit. */
function visible(s: string): string {
  return s.replace(ILLEGAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const TEXT_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  // A raw CR is turned into LF by every XML parser; a reference survives.
  "\r": "&#13;",
};

// Attribute value normalisation turns raw tabs and newlines into spaces.
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, "\n": "&#10;", "\t": "&#9;" };

/**
 * Makes any string safe as XML element text: markup characters are escaped,
 * and characters XML cannot hold at all (NUL, most control characters, lone
 * surrogates, U+FFFE, U+FFFF) are written as visible `\uXXXX` escapes so that
 * a response body full of binary junk neither breaks the file nor vanishes.
 *
 * @example
 * ```ts
 * import { xmlText } from "./junit.ts";
 * if (xmlText("a < b & \u0007") !== "a &lt; b &amp; \\u0007") throw new Error();
 * ```
 */
export function xmlText(s: string): string {
  return visible(s).replace(/[&<>"'\r]/g, (c) => TEXT_ESCAPES[c]);
}

/**
 * Like {@linkcode xmlText} for a double-quoted attribute value, which also
 * encodes tabs and line breaks so they survive attribute normalisation.
 *
 * @example
 * ```ts
 * import { xmlAttr } from "./junit.ts";
 * if (xmlAttr('say "hi"\n') !== "say &quot;hi&quot;&#10;") throw new Error();
 * ```
 */
export function xmlAttr(s: string): string {
  return visible(s).replace(/[&<>"'\r\n\t]/g, (c) => ATTR_ESCAPES[c]);
}

/** JUnit times are seconds; three decimals keep millisecond precision. */
function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

/** CI views show `message` as a title line, so it is kept to one short line. */
const MESSAGE_MAX = 300;

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  // Cut by code points so a surrogate pair is never split into two escapes.
  const chars = Array.from(flat);
  return chars.length <= MESSAGE_MAX ? flat : chars.slice(0, MESSAGE_MAX - 1).join("") + "…";
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Options of the JUnit report. */
export interface JUnitOptions {
  /** The command that reruns a flow, added to each failure's text. */
  reproduce?: (file: string) => string;
}

function label(a: AssertionResult): string {
  return `${a.phase === "until" ? "until " : ""}${a.path} ${a.operator}`;
}

/** A failed check's lines: a check of a check file is written there, not in `file`. */
function failedCheck(a: AssertionResult, file: string): string[] {
  return [
    "",
    `✘ ${label(a)}`,
    `    expected: ${show(a.expected)}`,
    `    actual:   ${a.found ? show(a.actual) : "(nothing matched)"}`,
    `    ${a.message}`,
    `    at ${a.file ?? file}:${a.line}:${a.column}`,
  ];
}

/**
 * The failure text: what went wrong and where first, then the request, each
 * failed check with expected and actual values, the checks that held, and
 * the start of the response body, which is what one needs to fix the flow.
 */
function details(flow: FlowResult, step: StepResult, options: JUnitOptions): string {
  const lines: string[] = [];
  if (step.message) lines.push(step.message);
  const file = step.file ?? flow.file;
  lines.push(`at ${file}:${step.line}:${step.column}`);
  if (step.request) {
    const got = step.response ? String(step.response.status) : "no response";
    lines.push(`${step.request.method} ${step.request.url} → ${got}`);
  }
  if (step.trace) lines.push(`trace ${step.trace.trace_id}, span ${step.trace.span_id}`);
  for (const a of step.assertions) if (!a.passed) lines.push(...failedCheck(a, file));
  const held = step.assertions.filter((a) => a.passed);
  if (held.length > 0) lines.push("", ...held.map((a) => `✔ ${label(a)}`));
  if (step.response?.body_excerpt !== undefined) {
    const type = step.response.content_type ? ` (${step.response.content_type})` : "";
    lines.push("", `response body${type}:`, step.response.body_excerpt || "(empty)");
  }
  if (step.request?.curl) lines.push("", `curl: ${step.request.curl}`);
  if (options.reproduce) lines.push("", `reproduce: ${options.reproduce(flow.file)}`);
  return lines.join("\n");
}

/**
 * A flow file as a JUnit `classname`. Jenkins splits a class name at its last
 * dot into package and class, so `flows/login.yaml` would be class `yaml`:
 * the extension is dropped and other dots become `_`, which every consumer
 * (Jenkins, GitLab, GitHub's reporters) then shows whole. The exact path is
 * in each failure's text.
 *
 * @example
 * ```ts
 * import { junitClassname } from "./junit.ts";
 * if (junitClassname("flows/v1.2/login.yaml") !== "flows/v1_2/login") throw new Error();
 * ```
 */
export function junitClassname(file: string): string {
  return file.replace(/\.ya?ml$/i, "").replaceAll(".", "_");
}

function testcase(
  flow: FlowResult,
  step: StepResult,
  options: JUnitOptions,
  reruns: string[] = [],
): string[] {
  const open = `    <testcase classname="${xmlAttr(junitClassname(flow.file))}" name="${
    xmlAttr(step.name)
  }" time="${seconds(step.duration_ms)}" assertions="${step.assertions.length}"`;
  if (step.status === "passed") {
    return reruns.length === 0 ? [`${open}/>`] : [`${open}>`, ...reruns, "    </testcase>"];
  }
  if (step.status === "skipped") {
    return [
      `${open}>`,
      `      <skipped>${xmlText(step.message ?? "skipped")}</skipped>`,
      ...reruns,
      "    </testcase>",
    ];
  }
  const tag = step.status === "error" ? "error" : "failure";
  const type = step.failure_kind ?? step.status;
  const message = oneLine(
    step.message ?? step.assertions.find((a) => !a.passed)?.message ?? step.status,
  );
  return [
    `${open}>`,
    `      <${tag} type="${xmlAttr(type)}" message="${xmlAttr(message)}">${
      xmlText(details(flow, step, options))
    }</${tag}>`,
    ...reruns,
    "    </testcase>",
  ];
}

/**
 * Surefire's elements for a re-run flow's earlier runs, by the index of the
 * step whose test case carries them: each run's first failure goes to the
 * step of the same name in the last run (else the one that stopped it, else
 * the first). `flakyFailure`/`flakyError` when the flow passed in the end,
 * `rerunFailure`/`rerunError` when it did not, in the order Surefire's XSD
 * lists them; the text is the failure's, as `<failure>` would hold it.
 */
function rerunElements(flow: FlowResult, options: JUnitOptions): Map<number, string[]> {
  const byStep = new Map<number, { order: number; text: string }[]>();
  const runs = (flow.retries ?? 0) + 1;
  for (const attempt of flow.attempts ?? []) {
    const failed = attempt.steps.find((st) => st.status === "failed" || st.status === "error");
    if (!failed) continue;
    let at = flow.steps.findIndex((st) => st.name === failed.name);
    if (at < 0) at = Math.max(0, flow.steps.findIndex((st) => st.status !== "passed"));
    const kind = failed.status === "error" ? "Error" : "Failure";
    const tag = `${flow.flaky ? "flaky" : "rerun"}${kind}`;
    const message = oneLine(
      failed.message ?? failed.assertions.find((a) => !a.passed)?.message ?? failed.status,
    );
    const trace = `attempt ${attempt.attempt} of ${runs} ${attempt.status}:\n${
      details(flow, failed, options)
    }`;
    const out = attempt.steps.map((st) => `${st.status === "passed" ? "✔" : "✘"} ${st.name}`);
    const text = `      <${tag} message="${xmlAttr(message)}" type="${
      xmlAttr(failed.failure_kind ?? failed.status)
    }"><stackTrace>${xmlText(trace)}</stackTrace><system-out>${
      xmlText(out.join("\n"))
    }</system-out></${tag}>`;
    const order = ["flakyFailure", "flakyError", "rerunFailure", "rerunError"].indexOf(tag);
    byStep.set(at, [...byStep.get(at) ?? [], { order, text }]);
  }
  const out = new Map<number, string[]>();
  for (const [at, list] of byStep) {
    out.set(at, list.sort((a, b) => a.order - b.order).map((e) => e.text));
  }
  return out;
}

/** A flow's `<testsuite>` opening line: from what the run keeps of every flow. */
function suiteOpen(flow: FlowResult, index: number): string {
  const c = countStatuses(flow.steps);
  const attrs = [
    `name="${xmlAttr(flow.name)}"`,
    `tests="${c.total}"`,
    `failures="${c.failed}"`,
    `errors="${c.error}"`,
    `skipped="${c.skipped}"`,
    `time="${seconds(flow.duration_ms)}"`,
  ];
  if (flow.started_at) attrs.push(`timestamp="${xmlAttr(flow.started_at)}"`);
  attrs.push(`id="${index}"`);
  return `  <testsuite ${attrs.join(" ")}>`;
}

/** A flow's properties, test cases and closing tag: from its whole result. */
function suiteBody(flow: FlowResult, run: RunInfo, options: JUnitOptions): string {
  const c = countStatuses(flow.steps);
  const properties: [string, string][] = [
    ["file", flow.file],
    ["run_id", run.run_id],
    ["runner_version", run.runner_version],
    ["status", flow.status],
  ];
  // A re-run flow says how many runs it took; a flaky one that it was flaky.
  if (flow.attempts?.length) properties.push(["attempts", String(flow.attempts.length + 1)]);
  if (flow.flaky) properties.push(["flaky", "true"]);
  // The XSD allows properties on suites only, so each step's trace context is a suite property.
  if (flow.trace_id) properties.push(["trace_id", flow.trace_id]);
  for (const step of flow.steps) {
    if (step.trace) {
      properties.push([`${step.name}.trace_id`, step.trace.trace_id], [
        `${step.name}.span_id`,
        step.trace.span_id,
      ]);
    }
  }
  const lines = [
    "    <properties>",
    ...properties.map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`),
    "    </properties>",
  ];
  const reruns = rerunElements(flow, options);
  for (const [i, step] of flow.steps.entries()) {
    lines.push(...testcase(flow, step, options, reruns.get(i)));
  }
  // A flow can fail with no failing step (its vars could not be evaluated,
  // so every step was skipped); without this its suite shows nothing wrong.
  if (flow.status !== "passed" && c.failed === 0 && c.error === 0) {
    const why = flow.steps.find((s) => s.message)?.message ?? "it has no steps";
    lines.push(`    <system-err>${xmlText(`Flow ${flow.status}: ${why}`)}</system-err>`);
  }
  lines.push("  </testsuite>");
  return lines.join("\n");
}

/**
 * JUnit XML in pieces (see `streamed.ts`); {@linkcode toJUnitXml} is the
 * whole of it.
 *
 * @example
 * ```ts
 * import { junitFormat } from "./junit.ts";
 * import { renderWhole } from "./streamed.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const xml = renderWhole(junitFormat(), {
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [{ file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 1, steps: [] }],
 * });
 * if (!xml.includes('<testsuite name="a" tests="0"') || !xml.endsWith("</testsuites>\n")) throw new Error(xml);
 * ```
 */
export function junitFormat(options: JUnitOptions = {}): ReportFormat {
  return {
    head(result, empty) {
      // The run's totals, not a list of every flow's steps: a long failing run's flows keep
      // their steps on disk, and reading them all back at once raised its peak by 10 MiB.
      const steps = result.totals.steps;
      const attrs =
        `name="flowrun" tests="${steps.total}" failures="${steps.failed}" errors="${steps.error}" time="${
          seconds(result.duration_ms)
        }"`;
      return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs}${empty ? "/>" : ">\n"}`;
    },
    body: (flow, run) => suiteBody(flow, run, options),
    wrap: (flow, index, body) => `${suiteOpen(flow, index)}\n${body}`,
    separator: "\n",
    tail: (_, empty) => (empty ? "\n" : "\n</testsuites>\n"),
  };
}

/**
 * Renders a run as JUnit XML valid against the Jenkins JUnit XSD. The same
 * result always gives the same bytes.
 *
 * @example
 * ```ts
 * import { toJUnitXml } from "./junit.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const xml = toJUnitXml({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "2025-01-01T00:00:00.000Z",
 *   duration_ms: 1500, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (!xml.includes('<testsuites name="flowrun" tests="0" failures="0" errors="0" time="1.500"/>')) {
 *   throw new Error(xml);
 * }
 * ```
 */
export function toJUnitXml(result: RunResult, options: JUnitOptions = {}): string {
  return renderWhole(junitFormat(options), result);
}

/**
 * A reporter that writes the JUnit XML once the run has ended, whatever its
 * outcome, so CI can show failures; with a spool, flow by flow (see
 * `streamed.ts`).
 *
 * @example
 * ```ts
 * import { junitReporter } from "./junit.ts";
 * let out = "";
 * const reporter = junitReporter(async (text) => void (out = text));
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunEnd?.({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (!out.startsWith('<?xml version="1.0" encoding="UTF-8"?>')) throw new Error(out);
 * ```
 */
export function junitReporter(
  write: (text: string, last: boolean) => Promise<void>,
  options: JUnitOptions = {},
  spool?: Spool,
): Reporter {
  return streamedReporter(junitFormat(options), write, spool);
}
