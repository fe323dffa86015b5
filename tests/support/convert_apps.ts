/**
 * Convert a stored recording with the CLI and replay the flow on a fresh
 * instance of its app, as a new user would: the flow's base-URL variables
 * pointed at the instance, its required variables set (the password the user
 * knows, anything else to a value a fresh instance cannot know), nothing
 * else. Shared by the app-corpus tests (tests/convert_*_test.ts).
 */
import { type CliRun, runCli } from "./cli.ts";

/** A variable the flow's header names. */
export interface HeaderVariable {
  name: string;
  required: boolean;
  /** What the header says about it. */
  text: string;
}

/** The variables a converted flow's header comment names, required ones and optional ones. */
export function headerVariables(flow: string): HeaderVariable[] {
  const out: HeaderVariable[] = [];
  let required = false;
  for (const line of flow.split("\n")) {
    if (!line.startsWith("#")) break;
    if (/^# Set these environment variables/.test(line)) required = true;
    else if (/^# Optional/.test(line)) required = false;
    else if (/^# Limits met/.test(line)) break;
    const m = /^# {3}([A-Z][A-Z0-9_]*)\s+(.*)$/.exec(line);
    if (m) out.push({ name: m[1], required, text: m[2] });
  }
  return out;
}

/**
 * Where the flow's base URLs point: one origin for all, or the live origin
 * for each recorded one (an app on two hosts, such as an SPA and its
 * authorization server).
 */
export type Origin = string | ((recorded: string) => string);

/** The environment a new user sets: base URLs to the instance, required values they know. */
export function userEnv(
  flow: string,
  origin: Origin,
  known: (name: string) => string | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of headerVariables(flow)) {
    if (/BASE_URL/.test(v.name) || /base URL/i.test(v.text)) {
      const recorded = /\((https?:\/\/[^)\s]+)\)/.exec(v.text)?.[1] ?? "";
      env[v.name] = typeof origin === "string" ? origin : origin(recorded);
    } else if (v.required) env[v.name] = known(v.name) ?? crypto.randomUUID();
  }
  return env;
}

/** A conversion and the run of its flow. */
export interface Replay {
  converted: CliRun;
  /** The flow's text ("" when the conversion failed). */
  flow: string;
  /** The run ("" output and code -1 when nothing ran). */
  run: CliRun;
  /** Each step's name and status from the JSON report. */
  steps: { name: string; status: string }[];
  env: Record<string, string>;
}

/**
 * Converts `har` with default options (`flowrun convert har HAR -o FILE`),
 * then runs the flow (`flowrun run FLOW --report-json …`) against `origin`
 * with {@linkcode userEnv}. Files go to a temporary folder removed afterwards.
 */
export async function convertAndReplay(
  har: string,
  origin: Origin,
  known: (name: string) => string | undefined,
): Promise<Replay> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-apps-" });
  try {
    const flowPath = `${dir}/flow.yaml`;
    const converted = await runCli(["convert", "har", har, "-o", flowPath]);
    const none = { code: -1, stdout: "", stderr: "" };
    if (converted.code !== 0) return { converted, flow: "", run: none, steps: [], env: {} };
    const flow = await Deno.readTextFile(flowPath);
    const env = userEnv(flow, origin, known);
    const run = await runCli(["run", flowPath, "--report-json", `${dir}/r.json`], { env });
    let steps: Replay["steps"] = [];
    try {
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      steps = report.flows[0]?.steps ?? [];
    } catch {
      // No report: the flow did not load; the run's output says why.
    }
    return { converted, flow, run, steps, env };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A one-paragraph account of a replay for an assertion message. */
export function explain(replay: Replay): string {
  const passed = replay.steps.filter((s) => s.status === "passed").length;
  return [
    `${passed} of ${replay.steps.length} steps passed (exit ${replay.run.code}) with ${
      JSON.stringify(Object.keys(replay.env))
    }`,
    replay.converted.stderr,
    replay.run.stdout.slice(0, 6000),
    replay.run.stderr.slice(0, 2000),
  ].join("\n");
}

/** The values of `values` that the flow still writes outside its comments. */
export function literalOutsideComments(flow: string, values: Iterable<string>): string[] {
  const code = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  const forms = (v: string) => [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)];
  return [...new Set(values)].filter((v) => forms(v).some((f) => code.includes(f)));
}
