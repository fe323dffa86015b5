/**
 * Convert a stored recording with the CLI and replay the flow on a fresh
 * instance of its app, as a new user would: the flow's base-URL variables
 * pointed at the instance, its required variables set (the password the user
 * knows, anything else to a value a fresh instance cannot know), nothing
 * else. Shared by the app-corpus tests (tests/convert_*_test.ts).
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";
import { harCheck } from "./harcheck.ts";
import { freePort } from "../real/servers.ts";

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
      const recorded = /\(((?:https?|wss?):\/\/[^)\s]+)\)/.exec(v.text)?.[1] ?? "";
      const http = recorded.replace(/^ws/, "http");
      const url = typeof origin === "string" ? origin : origin(http);
      // A WebSocket server's base URL (`WS_BASE_URL`) is the same server in its own scheme.
      env[v.name] = /^wss?:/.test(recorded) ? url.replace(/^http/, "ws") : url;
    } else if (v.required) env[v.name] = known(v.name) ?? crypto.randomUUID();
  }
  return env;
}

/** A conversion and the run of its flow. */
export interface Replay {
  converted: CliRun;
  /** The flow's text ("" when the conversion failed). */
  flow: string;
  /** The first run ("" output and code -1 when nothing ran). */
  run: CliRun;
  /** Every run, in order (none when the conversion failed). */
  runs: CliRun[];
  /** Each step's name and status from the first run's JSON report. */
  steps: { name: string; status: string }[];
  env: Record<string, string>;
}

/** A run of a flow file as a new user runs it, and its steps' statuses. */
export interface UserRun {
  run: CliRun;
  /** Each step's name and status from the JSON report ([] when the flow did not load). */
  steps: { name: string; status: string }[];
  env: Record<string, string>;
}

/**
 * Runs the flow at `flowPath` (`flowrun run FLOW --report-json FLOW.report.json`)
 * against `origin` with {@linkcode userEnv}, as a new user would.
 */
export async function runAsUser(
  flowPath: string,
  origin: Origin,
  known: (name: string) => string | undefined,
): Promise<UserRun> {
  const env = userEnv(await Deno.readTextFile(flowPath), origin, known);
  const report = `${flowPath}.report.json`;
  const run = await runCli(["run", flowPath, "--report-json", report], { env });
  let steps: UserRun["steps"] = [];
  try {
    steps = JSON.parse(await Deno.readTextFile(report)).flows[0]?.steps ?? [];
  } catch {
    // No report: the flow did not load; the run's output says why.
  }
  return { run, steps, env };
}

/**
 * Converts `har` (one recording, or two of the same journey) with default
 * options (`flowrun convert har HAR… -o FILE`), then runs the flow `runs`
 * times (once unless told) with {@linkcode runAsUser}. Files go to a
 * temporary folder removed afterwards.
 */
export async function convertAndReplay(
  har: string | string[],
  origin: Origin,
  known: (name: string) => string | undefined,
  runs = 1,
): Promise<Replay> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-apps-" });
  try {
    const flowPath = `${dir}/flow.yaml`;
    const converted = await runCli(["convert", "har", ...[har].flat(), "-o", flowPath]);
    const none = { code: -1, stdout: "", stderr: "" };
    if (converted.code !== 0) {
      return { converted, flow: "", run: none, runs: [], steps: [], env: {} };
    }
    const flow = await Deno.readTextFile(flowPath);
    const done: UserRun[] = [];
    for (let i = 0; i < runs; i++) done.push(await runAsUser(flowPath, origin, known));
    const [first] = done;
    return {
      converted,
      flow,
      run: first?.run ?? none,
      runs: done.map((d) => d.run),
      steps: first?.steps ?? [],
      env: first?.env ?? userEnv(flow, origin, known),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Asserts the conversion succeeded and every step of the first run passed (and there was one). */
export function assertReplayPassed(replay: Replay): void {
  assert.equal(replay.converted.code, 0, replay.converted.stderr);
  const passed = replay.steps.filter((s) => s.status === "passed").length;
  assert.ok(
    replay.run.code === 0 && replay.steps.length > 0 && passed === replay.steps.length,
    `${explain(replay)}\n${replay.flow}`,
  );
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

/**
 * The whole "nothing recorded is replayed" check of an app's converted flow:
 * at least `least` of the recording's secrets and ids were found (so the
 * check checks something), no id is written outside a comment, no secret at
 * all, and the HAR checker finds no leak, noise header, analytics cookie or
 * literal id.
 */
export function assertNothingRecorded(
  flow: string,
  har: string,
  { secrets, ids }: { secrets: Set<string>; ids: Set<string> },
  least: { secrets: number; ids: number },
): void {
  assert.ok(
    secrets.size >= least.secrets && ids.size >= least.ids,
    `${[...secrets]} ${[...ids]}`,
  );
  assert.deepEqual(literalOutsideComments(flow, ids), [], flow);
  for (const secret of secrets) {
    assert.ok(!flow.includes(secret), `the flow holds ${secret.slice(0, 8)}…\n${flow}`);
  }
  assert.deepEqual(harCheck(har, flow), {
    leaks: [],
    noiseHeaders: [],
    analyticsCookies: [],
    literalIds: [],
  });
}

/** A running app instance: its origin and how many requests its telemetry host received. */
export interface AppInstance {
  origin: string;
  telemetry(): Promise<number>;
  close(): Promise<void>;
}

/** The password a fresh projectly accepts. */
export const PROJECTLY_PASSWORD = "Wonderland-2024!";

/**
 * A fresh projectly (tests/apps/projectly/server.mjs, a Node-style server run
 * under Deno) and its telemetry collector on another port, once its health
 * check answers; `jobMs` shortens its export job (the server's default unless told).
 */
export async function startProjectly(options: { jobMs?: number } = {}): Promise<AppInstance> {
  const [port, other] = [freePort(), freePort()];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-env",
      new URL("../apps/projectly/server.mjs", import.meta.url).pathname,
    ],
    env: {
      PORT: String(port),
      ANALYTICS_PORT: String(other),
      APP_PASSWORD: PROJECTLY_PASSWORD,
      ...(options.jobMs === undefined ? {} : { JOB_MS: String(options.jobMs) }),
      DENO_NO_UPDATE_CHECK: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  };
  for (let attempt = 0; attempt < 150; attempt++) {
    const ok = await fetch(`${origin}/api/health`).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) {
      return {
        origin,
        close,
        telemetry: async () =>
          (await (await fetch(`${origin}/__stats`)).json()).analytics as number,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error("projectly did not start within 7.5 s");
}
