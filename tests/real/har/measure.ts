/**
 * One way of turning recordings into a flow (`flowrun convert har` with its
 * options), the flow run on a fresh Node-RED as a new user runs it, and what
 * that gave: exit codes and steps passed of steps run. Every CLI call is a
 * subprocess killed after a bound, so a hang fails the test, not the suite.
 *
 * @module
 */
import { parse } from "yaml";
import { type BoundedRun, runBounded } from "../../support/cli.ts";
import { userEnv } from "../../support/convert_apps.ts";
import { NODE_RED_PASSWORD, startNodeRed } from "./node_red.ts";
import { SERVICE_PASSWORD } from "./journey.ts";

/** How long a conversion or a run may take before it is killed. */
const BOUND_MS = 180_000;

/** What one way gave. */
export interface Measure {
  /** The way, e.g. "pw default". */
  label: string;
  convert: BoundedRun;
  /** The flow written ("" when none was). */
  flow: string;
  /** The run on a fresh instance (undefined when no flow was written). */
  run?: BoundedRun;
  /** The variables the run was given: base URLs and the required ones the header names. */
  env: Record<string, string>;
  /** Each step's name, status and first failure message, from the run's JSON report. */
  steps: { name: string; status: string; message?: string }[];
  passed: number;
  /** The second run on the same instance. */
  again?: { code: number; passed: number; total: number };
}

/**
 * The value a new user gives a required variable: the passwords they typed
 * (the login's, and the one typed into the HTTP request node), else nothing
 * they could know.
 */
export function known(name: string): string | undefined {
  if (name === "LOGIN_PASSWORD") return NODE_RED_PASSWORD;
  return /PASSWORD/.test(name) ? SERVICE_PASSWORD : undefined;
}

interface ReportStep {
  name: string;
  status: string;
  assertions?: { passed: boolean; message: string }[];
  message?: string;
}

/** The variables a flow's header asks for (base URLs aside), with the values a user knows. */
export function askedEnv(flow: string): Record<string, string> {
  const env = userEnv(flow, "http://unused", known);
  for (const name of Object.keys(env)) if (/BASE_URL/.test(name)) delete env[name];
  return env;
}

/**
 * One run of a flow: the CLI's outcome, each step's from its JSON report, and how many passed.
 *
 * @example
 * ```ts ignore
 * import { runOnce } from "./measure.ts";
 * const { run, steps, passed } = await runOnce("/tmp/x/flow.yaml", env, "/tmp/x/report.json");
 * ```
 */
export async function runOnce(
  flowPath: string,
  env: Record<string, string>,
  report: string,
): Promise<{ run: BoundedRun; steps: Measure["steps"]; passed: number }> {
  const run = await runBounded(["run", flowPath, "--report-json", report], { env, ms: BOUND_MS });
  let steps: Measure["steps"] = [];
  try {
    const flows = JSON.parse(await Deno.readTextFile(report)).flows;
    steps = (flows[0]?.steps ?? []).map((s: ReportStep) => ({
      name: s.name,
      status: s.status,
      message: s.assertions?.find((a) => !a.passed)?.message ?? s.message,
    }));
  } catch {
    // No report: the flow did not load; the run's output says why.
  }
  return { run, steps, passed: steps.filter((s) => s.status === "passed").length };
}

/** What two runs of a flow on one instance gave: the first's outcome and the second's counts. */
export type TwoRuns = Pick<Measure, "run" | "env" | "steps" | "passed" | "again">;

/**
 * Runs `flowPath` on `instance` as its header says (`values` giving what a
 * user knows), then once more on the same instance: the second run meets the
 * state the first left (another revision), which only values taken from live
 * answers get through.
 *
 * @example
 * ```ts ignore
 * import { known, runTwiceOn } from "./measure.ts";
 * const { run, env, again } = await runTwiceOn(instance, "/tmp/x/flow.yaml", known);
 * ```
 */
export async function runTwiceOn(
  instance: { origin: string },
  flowPath: string,
  values: (name: string) => string | undefined,
): Promise<TwoRuns> {
  const env = userEnv(await Deno.readTextFile(flowPath), instance.origin, values);
  const first = await runOnce(flowPath, env, `${flowPath}.report.json`);
  const again = await runOnce(flowPath, env, `${flowPath}.again.report.json`);
  return {
    ...first,
    env,
    again: { code: again.run.code, passed: again.passed, total: again.steps.length },
  };
}

/** Runs `flowPath` twice on a fresh Node-RED ({@linkcode runTwiceOn}). */
async function runFresh(flowPath: string): Promise<TwoRuns> {
  const instance = await startNodeRed();
  try {
    return await runTwiceOn(instance, flowPath, known);
  } finally {
    await instance.close();
  }
}

/**
 * Converts `hars` with `args` into `dir/LABEL.yaml`, within the bound; with
 * `verifier`, against a fresh instance it starts (`--verify` and its origin
 * appended, its variables `env` set). The flow's path, the conversion, and
 * the flow written (undefined when none was).
 *
 * @example
 * ```ts ignore
 * import { convertBounded } from "./measure.ts";
 * const { flowPath, convert, flow } = await convertBounded("pw default", "/tmp/x", ["/tmp/x/pw.har"]);
 * ```
 */
export async function convertBounded(
  label: string,
  dir: string,
  hars: string[],
  args: string[] = [],
  verifier?: {
    start: () => Promise<{ origin: string; close(): Promise<void> }>;
    env: Record<string, string>;
  },
): Promise<{ flowPath: string; convert: BoundedRun; flow?: string }> {
  const flowPath = `${dir}/${label.replaceAll(/\W+/g, "_")}.yaml`;
  const instance = verifier ? await verifier.start() : undefined;
  let convert: BoundedRun;
  try {
    const all = ["convert", "har", ...hars, "-o", flowPath, ...args];
    if (instance) all.push("--verify", instance.origin);
    convert = await runBounded(all, { ms: BOUND_MS, env: verifier?.env ?? {} });
  } finally {
    await instance?.close();
  }
  const flow = await Deno.readTextFile(flowPath).catch(() => undefined);
  return { flowPath, convert, flow };
}

/**
 * Converts `hars` with `args` into `dir/LABEL.yaml` ({@linkcode convertBounded},
 * `verifier` as there), then, when a flow was written, runs it as `runFresh`
 * does (a fresh instance of its own): the measure, with what `runFresh` adds.
 *
 * @example
 * ```ts ignore
 * import { measureWith, runTwiceOn } from "./measure.ts";
 * const m = await measureWith("pw default", "/tmp/x", ["/tmp/x/pw.har"], [], undefined, runFresh);
 * ```
 */
export async function measureWith<X extends object>(
  label: string,
  dir: string,
  hars: string[],
  args: string[] | undefined,
  verifier: Parameters<typeof convertBounded>[4],
  runFresh: (flowPath: string) => Promise<TwoRuns & X>,
): Promise<Measure & Partial<X>> {
  const { flowPath, convert, flow } = await convertBounded(label, dir, hars, args, verifier);
  if (flow === undefined) {
    // No flow, no run: none of what `runFresh` adds (each of it optional).
    const none: Measure = { label, convert, flow: "", env: {}, steps: [], passed: 0 };
    return none as Measure & Partial<X>;
  }
  return { label, convert, flow, ...await runFresh(flowPath) };
}

/**
 * Converts `hars` with `options` into `dir/LABEL.yaml`, then runs the flow on
 * another fresh instance. For `--verify` a fresh instance's origin is
 * appended and the variables `verify` names are set (what the default
 * conversion's summary asked for, as a user who ran it first would).
 */
export function measure(
  label: string,
  dir: string,
  hars: string[],
  options: { verify?: Record<string, string>; args?: string[] } = {},
): Promise<Measure> {
  const verifier = options.verify && { start: startNodeRed, env: options.verify };
  return measureWith(label, dir, hars, options.args, verifier, runFresh);
}

/** One line per way: exit codes and steps passed of steps run. */
export function table(measures: Measure[]): string {
  return measures.map((m) =>
    `${m.label.padEnd(16)} convert exit ${m.convert.code}${m.convert.killed ? " (killed)" : ""}` +
    (m.run
      ? `, run exit ${m.run.code}, ${m.passed}/${m.steps.length} steps passed` +
        (m.again ? `; again: exit ${m.again.code}, ${m.again.passed}/${m.again.total}` : "")
      : ", no flow written")
  ).join("\n");
}

/** Every step that did not pass, with the message of its first failure. */
export function failures(m: Measure): string {
  return m.steps.filter((s) => s.status !== "passed")
    .map((s) => `  ${s.name}: ${s.status}${s.message ? ` (${s.message.slice(0, 200)})` : ""}`)
    .join("\n");
}

interface DeployStep {
  /** Absent on a websocket step (the recording's `/comms` socket). */
  request?: { method: string; url: string; body?: { flows?: unknown } };
}

/**
 * The nodes a deploy (`POST /flows`) places on a tab the same body does not
 * hold, of all the nodes placed on one: a node's `z` must name one of the
 * body's tabs by the same value, and a value fresh at each use
 * (`${RANDOM.…}`) names nothing. The recording's bodies have none.
 */
export function strayNodes(flow: string): { stray: number; placed: number } {
  let stray = 0;
  let placed = 0;
  const steps: DeployStep[] = (parse(flow) as { steps?: DeployStep[] } | null)?.steps ?? [];
  for (const step of steps) {
    if (step.request?.method !== "POST" || !/\/flows$/.test(step.request.url)) continue;
    const flows = step.request.body?.flows;
    const items = (Array.isArray(flows) ? flows : [flows]) as Record<string, unknown>[];
    const tabs = new Set(items.filter((i) => i?.type === "tab").map((i) => String(i.id)));
    for (const item of items) {
      if (item?.z === undefined) continue;
      placed++;
      if (!tabs.has(String(item.z)) || String(item.z).includes("${RANDOM")) stray++;
    }
  }
  return { stray, placed };
}
