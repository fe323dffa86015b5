/**
 * Runs the flowrun CLI as a subprocess, exactly as a user or CI would, and
 * normalises the parts of its output that change between runs.
 */
import assert from "node:assert/strict";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What a CLI run produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Deno's arguments for `deno run cli.ts <args>`: the runner's permissions, `allow`, its V8 flags. */
function cliArgs(args: string[], allow: readonly string[] = []): string[] {
  return ["run", ...RUNNER_PERMISSIONS, ...allow, ...RUNNER_V8_FLAGS, `${ROOT}cli.ts`, ...args];
}

/**
 * Runs `deno run cli.ts <args>` with the permissions the runner ships with, and `allow` (Deno's
 * `--allow-run=…`, which a source run of a flow with a token command is given by its user).
 */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; allow?: readonly string[] } = {},
): Promise<CliRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: cliArgs(args, options.allow),
    cwd: options.cwd ?? ROOT,
    // Deno's background update check would show up in tests that set HTTPS_PROXY.
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env },
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A {@linkcode runFlowText} run: the CLI's output and its JSON report (null when none was written). */
export interface FlowTextRun extends CliRun {
  // deno-lint-ignore no-explicit-any
  report: any;
}

/**
 * Writes `flow` to a temporary file, runs it with `--report-json` and `env`, and reads the report
 * back; the folder is removed after.
 *
 * @example
 * ```ts ignore
 * import { runFlowText } from "./cli.ts";
 * const { code, report } = await runFlowText("name: f\nsteps: []\n", {});
 * ```
 */
export async function runFlowText(flow: string, env: Record<string, string>): Promise<FlowTextRun> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const got = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    const report = await Deno.readTextFile(`${dir}/r.json`).then(JSON.parse).catch(() => null);
    return { ...got, report };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Converts the recording at `har` with `flowrun convert har` (default options) into `yaml`,
 * asserts the conversion succeeded, and gives the flow's text.
 *
 * @example
 * ```ts ignore
 * import { convertHarFile } from "./cli.ts";
 * const flow = await convertHarFile("/tmp/x/ui.har", "/tmp/x/ui.yaml");
 * ```
 */
export async function convertHarFile(har: string, yaml: string): Promise<string> {
  const converted = await runCli(["convert", "har", har, "-o", yaml]);
  assert.equal(converted.code, 0, converted.stderr);
  return await Deno.readTextFile(yaml);
}

/**
 * `convert har` with default options on the HAR text `har` (written to a temporary folder,
 * removed after), asserting it succeeded: the flow printed and the summary.
 *
 * @example
 * ```ts ignore
 * import { convertHarText } from "./cli.ts";
 * const { flow, summary } = await convertHarText(harText);
 * ```
 */
export async function convertHarText(har: string): Promise<{ flow: string; summary: string }> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, har);
    const out = await runCli(["convert", "har", `${dir}/in.har`]);
    assert.equal(out.code, 0, out.stderr);
    return { flow: out.stdout, summary: out.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Writes the HAR text `har` to a temporary folder, converts it with default options (asserting it
 * succeeded), and runs the flow `times` times one after the other with `BASE_URL` at a server
 * `start` starts for it (closed after) and `env`: the conversion (its summary on stderr), the
 * flow, the first run, every run, and the server, to read what it saw.
 *
 * @example
 * ```ts ignore
 * import { convertHarThenRun } from "./cli.ts";
 * const { converted, flow, run, server } = await convertHarThenRun(standIn, harText);
 * ```
 */
export async function convertHarThenRun<S extends { origin: string; close(): Promise<void> }>(
  start: () => S,
  har: string,
  env: Record<string, string> = {},
  times = 1,
): Promise<{ converted: CliRun; flow: string; run: CliRun; runs: CliRun[]; server: S }> {
  const dir = await Deno.makeTempDir();
  const server = start();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    const runs: CliRun[] = [];
    for (let n = 0; n < times; n++) {
      runs.push(
        await runCli(["run", `${dir}/f.yaml`], { env: { BASE_URL: server.origin, ...env } }),
      );
    }
    return { converted, flow, run: runs[0], runs, server };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * `convert har HAR ...ARGS --verify ORIGIN -o FLOW` against a server `start`
 * starts for it, closed when the conversion is done: the conversion and the
 * flow written ("" when none was).
 *
 * @example
 * ```ts ignore
 * import { convertVerified } from "./cli.ts";
 * const { verified, flow } = await convertVerified(startApi, "/tmp/x/s.har", "/tmp/x/f.yaml");
 * ```
 */
export async function convertVerified(
  start: () => { origin: string; close(): Promise<void> },
  har: string,
  flowPath: string,
  args: string[] = [],
): Promise<{ verified: CliRun; flow: string }> {
  const server = start();
  let verified: CliRun;
  try {
    verified = await runCli([
      "convert",
      "har",
      har,
      ...args,
      "--verify",
      server.origin,
      "-o",
      flowPath,
    ]);
  } finally {
    await server.close();
  }
  return { verified, flow: await Deno.readTextFile(flowPath).catch(() => "") };
}

/**
 * Runs the flow at `flowPath` once on `server` as a new user would (nothing
 * set but `BASE_URL`): it passes and the server refused nothing; the server
 * is closed after. `flow` (the file's text) goes into the message of a failure.
 *
 * @example
 * ```ts ignore
 * import { passesAsNewUser } from "./cli.ts";
 * await passesAsNewUser(startApi(), "/tmp/x/flow.yaml", flow);
 * ```
 */
export async function passesAsNewUser(
  server: { origin: string; refused: unknown[]; close(): Promise<void> },
  flowPath: string,
  flow: string,
): Promise<void> {
  try {
    const run = await runCli(["run", flowPath], { env: { BASE_URL: server.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
    assert.deepEqual(server.refused, []);
  } finally {
    await server.close();
  }
}

/**
 * Runs the flow at `path` twice with `flowrun run`, `BASE_URL` set to `baseUrl`, and asserts
 * both runs pass: a second run on the same instance fails where the flow replays a recorded
 * one-time value. `flow` (the file's text) goes into the message of a failure.
 *
 * @example
 * ```ts ignore
 * import { runCliTwice } from "./cli.ts";
 * await runCliTwice("/tmp/x/ui.yaml", "http://127.0.0.1:8080", "name: ui\n");
 * ```
 */
export async function runCliTwice(path: string, baseUrl: string, flow: string): Promise<void> {
  for (const n of [1, 2]) {
    const run = await runCli(["run", path], { env: { BASE_URL: baseUrl } });
    assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
  }
}

/**
 * Runs `flow` like {@linkcode runFlowText} against `app`, a server a test started (`BASE_URL` is
 * its `base`), then shuts the server down: the run, with what the server noted it `seen`.
 *
 * @example
 * ```ts ignore
 * import { runFlowServed } from "./cli.ts";
 * const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response());
 * const base = `http://127.0.0.1:${s.addr.port}`;
 * const { code, seen } = await runFlowServed({ seen: [], base, s }, "name: f\nsteps: []\n");
 * ```
 */
export async function runFlowServed(
  app: { seen: string[]; base: string; s: { shutdown(): Promise<void> } },
  flow: string,
): Promise<FlowTextRun & { seen: string[] }> {
  try {
    return { ...await runFlowText(flow, { BASE_URL: app.base }), seen: app.seen };
  } finally {
    await app.s.shutdown();
  }
}

/**
 * Each step of a report's first flow as `<name> <status>`.
 *
 * @example
 * ```ts
 * import { stepStatuses } from "./cli.ts";
 * const got = stepStatuses({ flows: [{ steps: [{ name: "a", status: "passed" }] }] });
 * if (got.join() !== "a passed") throw new Error();
 * ```
 */
export function stepStatuses(
  report: { flows: { steps: { name: string; status: string }[] }[] },
): string[] {
  return report.flows[0].steps.map((s) => `${s.name} ${s.status}`);
}

/**
 * Starts `deno run cli.ts <args>` as a child process, for tests that send it
 * signals or read its streams as they come; stdin is closed, colours are off.
 * `allow` as for {@linkcode runCli}.
 */
export function spawnCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    allow?: readonly string[];
    stdout?: "piped" | "null";
    stderr?: "piped" | "null";
  } = {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: cliArgs(args, options.allow),
    cwd: options.cwd ?? ROOT,
    // Deno's background update check would show up in tests that set HTTPS_PROXY.
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env },
    stdin: "null",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
}

/** What a bounded CLI run gave: `ms` is how long it took, `killed` whether the bound ended it. */
export interface BoundedRun extends CliRun {
  ms: number;
  killed: boolean;
}

/**
 * Runs the CLI like {@link spawnCli}, killed with SIGKILL after `ms` (30 s
 * unless told), so a hang fails the test instead of the suite;
 * `interruptMs` sends SIGINT that long after the start, `interruptOn` when it
 * settles (a handshake: the server saw the request the run is busy with,
 * which a loaded machine reaches later than any fixed delay; a function is
 * given the child's pid, to wait on what the process did: {@linkcode cpuSpent}), `interruptWhen`
 * once the standard output so far satisfies it (the run printed a flow's end).
 */
export async function runBounded(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    ms?: number;
    interruptMs?: number;
    interruptOn?: Promise<unknown> | ((pid: number) => Promise<unknown>);
    interruptWhen?: (stdout: string) => boolean;
  } = {},
): Promise<BoundedRun> {
  const started = performance.now();
  const child = spawnCli(args, { env: options.env, cwd: options.cwd });
  let killed = false;
  const signal = (name: Deno.Signal) => {
    try {
      child.kill(name);
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    killed = true;
    signal("SIGKILL");
  }, options.ms ?? 30_000);
  const interrupt = options.interruptMs === undefined
    ? undefined
    : setTimeout(() => signal("SIGINT"), options.interruptMs);
  let ended = false;
  const on = options.interruptOn;
  (typeof on === "function" ? on(child.pid) : on)?.then(() => ended || signal("SIGINT"));
  try {
    const [stdout, stderr, status] = await Promise.all([
      readAll(child.stdout, options.interruptWhen, () => ended || signal("SIGINT")),
      new Response(child.stderr).text(),
      child.status,
    ]);
    return { code: status.code, stdout, stderr, ms: performance.now() - started, killed };
  } finally {
    ended = true;
    clearTimeout(timer);
    clearTimeout(interrupt);
  }
}

/** Reads a stream to its end as text, calling `interrupt` once when the text so far satisfies `when`. */
async function readAll(
  stream: ReadableStream<Uint8Array>,
  when: ((text: string) => boolean) | undefined,
  interrupt: () => void,
): Promise<string> {
  let text = "";
  let fired = false;
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (when && !fired && when(text)) {
      fired = true;
      interrupt();
    }
  }
  return text + decoder.decode();
}

/** Replaces ports, timings and generated ids, which differ between runs, with fixed markers. */
export function normalise(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    // Ids the demo API generates for items and jobs.
    .replace(/\b(itm|job)_[0-9a-f]{12}\b/g, "$1_ID")
    .replace(/\b\d+(\.\d+)? ms\b/g, "N ms")
    .replace(/\b\d+\.\d\d s\b/g, "N ms");
}

/** The project root, with a trailing slash. */
export const root: string = ROOT;

/**
 * CPU time a process has used so far (all its threads, user and system), in
 * milliseconds, from `/proc/<pid>/stat`; 0 once it is gone. Linux.
 */
export function cpuSpent(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
