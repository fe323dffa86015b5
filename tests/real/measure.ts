/**
 * Converts and runs as a new user would, and measures the outcome against
 * the reference: the converter's summary says which variables to set and
 * which command to run; the run's JSON report says what each step sent and
 * got back. Shared by the tests of tests/real/.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";

/** The environment variables a conversion summary asks for, with what it says of each. */
export function askedVariables(summary: string): Map<string, string> {
  const asked = new Map<string, string>();
  let inList = false;
  for (const line of summary.split("\n")) {
    if (/^Set these environment variables/.test(line)) inList = true;
    else if (!/^\s/.test(line)) inList = false;
    else if (inList) {
      const m = /^\s+([A-Z][A-Z0-9_]*):\s*(.*)$/.exec(line);
      if (m) asked.set(m[1], m[2]);
    }
  }
  return asked;
}

/** The arguments of the `Run: flowrun …` line of a conversion summary (without `flowrun`). */
export function printedRun(summary: string): string[] | undefined {
  const line = /^Run: flowrun (.*)$/m.exec(summary)?.[1];
  return line?.trim().split(/\s+/);
}

/** One step of a run as its JSON report holds it. */
export interface ReportStep {
  name: string;
  status: string;
  request?: { method: string; url: string };
  response?: { status: number };
  message?: string;
  assertions?: { passed: boolean; message?: string }[];
}

/** A run's JSON report, read back. */
export interface ReadReport {
  steps: (ReportStep & { flow: string })[];
  /**
   * Whether the file was not valid JSON as written: a word of the report
   * masked as a secret outside a string (`"exercised": ***`). The steps are
   * then read with the bare masks quoted.
   */
  invalidJson: boolean;
}

/** Reads the JSON report at `path` (see {@linkcode ReadReport}). */
export async function readReport(path: string): Promise<ReadReport> {
  const text = await Deno.readTextFile(path);
  let invalidJson = false;
  let report: { flows: { name: string; steps: ReportStep[] }[] };
  try {
    report = JSON.parse(text);
  } catch {
    invalidJson = true;
    report = JSON.parse(text.replace(/(:\s*)\*\*\*(?=\s*[,}\]\n])/g, '$1"***"'));
  }
  const steps = report.flows.flatMap((f) => f.steps.map((s) => ({ ...s, flow: f.name })));
  return { steps, invalidJson };
}

/** A conversion, then the run its summary prints, with only the variables it asks for. */
export interface Trial {
  converted: CliRun;
  /** The variables the summary asked for and the values given. */
  env: Record<string, string>;
  /** The run ("" output and code -1 when the summary printed no command). */
  run: CliRun;
  report?: ReadReport;
}

/**
 * Runs `convert` (the CLI arguments of a conversion), then the `Run:` command
 * its summary prints with `--report-json` added, setting exactly the
 * variables the summary asks for: `value(name, what)` gives each, and
 * throws for one a new user could not know.
 */
export async function convertAndRunAsPrinted(
  convert: string[],
  reportPath: string,
  value: (name: string, what: string) => string,
): Promise<Trial> {
  const converted = await runCli(convert);
  const env: Record<string, string> = {};
  for (const [name, what] of askedVariables(converted.stderr)) env[name] = value(name, what);
  const args = printedRun(converted.stderr);
  if (converted.code !== 0 || !args) {
    return { converted, env, run: { code: -1, stdout: "", stderr: "" } };
  }
  const run = await runCli([...args, "--report-json", reportPath], { env });
  let report: ReadReport | undefined;
  try {
    report = await readReport(reportPath);
  } catch {
    // No report: nothing ran; the run's output says why.
  }
  return { converted, env, run, report };
}

/**
 * {@linkcode convertAndRunAsPrinted} of `${dir}/openapi.json` into `${dir}/flows`, for a new user
 * who knows only the base URL `origin`: the conversion must succeed, ask for `BASE_URL` alone,
 * and its printed run must write its report.
 *
 * @example
 * ```ts ignore
 * import { openApiTrial } from "./measure.ts";
 * const trial = await openApiTrial("/tmp/t", "http://127.0.0.1:8080");
 * console.log(trial.report.steps.length);
 * ```
 */
export async function openApiTrial(
  dir: string,
  origin: string,
  reportPath = `${dir}/report.json`,
): Promise<Trial & { report: ReadReport }> {
  const trial = await convertAndRunAsPrinted(
    ["convert", "openapi", `${dir}/openapi.json`, "-o", `${dir}/flows`],
    reportPath,
    knownOnly({ BASE_URL: origin }),
  );
  assert.equal(trial.converted.code, 0, trial.converted.stderr);
  assert.deepEqual(Object.keys(trial.env), ["BASE_URL"]);
  assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
  return { ...trial, report: trial.report };
}

/**
 * The text of every flow a conversion wrote into `dir` (its `.yaml` files, joined), to look for
 * a literal credential in.
 *
 * @example
 * ```ts
 * import { flowsText } from "./measure.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.yaml`, "name: a");
 * if (flowsText(dir) !== "name: a") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function flowsText(dir: string): string {
  return [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".yaml"))
    .map((e) => Deno.readTextFileSync(`${dir}/${e.name}`)).join("\n");
}

/** An operation of an OpenAPI document. */
export interface Operation {
  method: string;
  path: string;
}

/** Every operation of `doc` (an OpenAPI 3 document). */
export function operationsOf(
  doc: { paths?: Record<string, Record<string, unknown>> },
): Operation[] {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item).filter((m) => methods.includes(m)).map((m) => ({
      method: m.toUpperCase(),
      path,
    }))
  );
}

/** Whether `pathname` is an instance of the templated `path` (`/todos/{id}`). */
function matches(path: string, pathname: string): boolean {
  const pattern = path.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${pattern}$`).test(pathname);
}

/** The operations of `operations` some step got a 2xx for, and the others with what they got. */
export function accepted(
  operations: readonly Operation[],
  steps: readonly ReportStep[],
): { accepted: Operation[]; refused: (Operation & { got: string })[] } {
  const result = { accepted: [] as Operation[], refused: [] as (Operation & { got: string })[] };
  const params = (path: string) => path.split("{").length;
  // A request is an instance of the operation whose template names it most literally:
  // WireMock's `GET /__admin/requests/unmatched` is no `GET /__admin/requests/{requestId}`.
  const instanceOf = (s: ReportStep, op: Operation) => {
    if (s.request?.method !== op.method) return false;
    const pathname = new URL(s.request.url).pathname;
    if (!matches(op.path, pathname)) return false;
    return !operations.some((o) =>
      o.method === op.method && params(o.path) < params(op.path) && matches(o.path, pathname)
    );
  };
  for (const op of operations) {
    const tried = steps.filter((s) => instanceOf(s, op));
    const ok = tried.some((s) => (s.response?.status ?? 0) >= 200 && s.response!.status < 300);
    if (ok) result.accepted.push(op);
    else {
      const got = tried.length === 0
        ? "never sent"
        : tried.map((s) => `${s.response?.status ?? s.status} (${s.name})`).join(", ");
      result.refused.push({ ...op, got });
    }
  }
  return result;
}

/**
 * The refused operations of an {@linkcode accepted} result as `"METHOD path": "status"`, the
 * first status each got (`"never sent"` reads `"never"`), to compare with a test's known gaps.
 *
 * @example
 * ```ts
 * import { refusedStatuses } from "./measure.ts";
 * const r = refusedStatuses({ refused: [{ method: "GET", path: "/a", got: "401 (read a)" }] });
 * if (r["GET /a"] !== "401") throw new Error();
 * ```
 */
export function refusedStatuses(
  result: { refused: readonly (Operation & { got: string })[] },
): Record<string, string> {
  return Object.fromEntries(
    result.refused.map((op) => [`${op.method} ${op.path}`, op.got.split(" ")[0]]),
  );
}

/**
 * {@linkcode accepted}, and a line on stderr saying how many and what each refused got
 * (`etcd 3.4: 31 of 41 operations accepted (2xx); refused: …`), which the slow part's output keeps.
 */
export function acceptedSaid(
  label: string,
  operations: readonly Operation[],
  steps: readonly ReportStep[],
): ReturnType<typeof accepted> {
  const result = accepted(operations, steps);
  console.error(
    `${label}: ${result.accepted.length} of ${operations.length} operations accepted (2xx); refused:\n  ${
      result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`).join("\n  ")
    }`,
  );
  return result;
}

/**
 * The `value` of {@linkcode convertAndRunAsPrinted} for a new user who knows
 * `known` (the base URL, a key the server's set-up printed): any other
 * variable the summary asks for fails the test, naming it.
 */
export function knownOnly(known: Record<string, string>): (name: string, what: string) => string {
  return (name, what) => {
    if (Object.hasOwn(known, name)) return known[name];
    throw new Error(`the summary asks for ${name} (${what}), which a new user cannot know`);
  };
}

/** One run of a flow: the CLI's result, its report's steps, how many of them passed. */
export interface FlowRun {
  run: CliRun;
  steps: ReportStep[];
  passed: number;
}

/**
 * An `after` for {@linkcode runsOf} that only says how the run went: `WHAT, run N: P of S steps
 * passed on a fresh instance; failed: …` on stderr.
 *
 * @example
 * ```ts ignore
 * import { runsOf, saysRun } from "./measure.ts";
 * await runsOf("/tmp/flow.yaml", { BASE_URL: "http://127.0.0.1:8080" }, 2, saysRun("ghost HAR pw"));
 * ```
 */
export function saysRun(what: string): (done: FlowRun, n: number) => Promise<Record<never, never>> {
  return ({ steps, passed }, n) => {
    const failed = steps.filter((s) => s.status !== "passed");
    console.error(
      `${what}, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance${
        failed.length ? `; failed: ${failed.map((s) => `${s.name} (${s.message})`).join(", ")}` : ""
      }`,
    );
    return Promise.resolve({});
  };
}

/**
 * Runs the flow at `flowPath` `runs` times with `env`, each with a JSON
 * report (`FLOW.N.json`) and the options `more(N)` gives, and `after` each
 * run (what the run left on the server, printed as it likes): each run with
 * what `after` found.
 *
 * @example
 * ```ts ignore
 * import { runsOf } from "./measure.ts";
 * const results = await runsOf("/tmp/flow.yaml", { BASE_URL: "http://127.0.0.1:8080" }, 2, () =>
 *   Promise.resolve({}));
 * ```
 */
export async function runsOf<T>(
  flowPath: string,
  env: Record<string, string>,
  runs: number,
  after: (done: FlowRun, n: number) => Promise<T>,
  more: (n: number) => string[] = () => [],
): Promise<(FlowRun & T)[]> {
  const results = [];
  for (let n = 1; n <= runs; n++) {
    const report = `${flowPath}.${n}.json`;
    const run = await runCli(["run", flowPath, "--report-json", report, ...more(n)], { env });
    const { steps } = await readReport(report);
    const done = { run, steps, passed: steps.filter((s) => s.status === "passed").length };
    results.push({ ...done, ...await after(done, n) });
  }
  return results;
}
