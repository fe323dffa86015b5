/**
 * `deno run -A bench/request_path.ts [requests] [rounds] [--profile] [--default-flags] [--only=m,…]`:
 * what one request costs in CPU on each layer of flowrun, against the plain loop.
 *
 * The demo API runs in its own process; each mode runs in a fresh process
 * of its own, warms up, then sends `requests` (default 5,000) GET /health
 * one after the other, and reports the CPU time (user and system, every
 * thread of that process, from `getrusage`) of the measured part only:
 *
 * - `loop`: `fetch`, a timeout over the body (an abort signal and a timer),
 *   every header read, the body read as text and parsed: what any runner
 *   must do per request (bench/raw_fetch.mjs as a runner).
 * - `send`: flowrun's `send()` (lib/http/send.ts) with the options a run
 *   gives it: a timeout, the run's signal, the run's deadlines.
 * - `run`: flows already loaded and checked, run by the library's
 *   `runFlows` without reporters: 5 steps per flow, each asserting the
 *   status and one JSON field.
 * - `cli`: `flowrun run` of the same flow files, in-process (`main()` of
 *   cli.ts): loading, the console's output (to /dev/null) and the run.
 * - `reports`: the same with the JUnit and JSON reports, as `deno task bench` runs it.
 * - `loop-process` and `flowrun-process`: the loop and `flowrun run` (with
 *   both reports) as whole fresh processes, start-up included, CPU from GNU
 *   time: what `deno task bench` compares.
 *
 * Every mode runs with the runner's V8 flags (`--default-flags`: V8's
 * defaults for all), so a difference is the code's, not the heap's. Modes
 * alternate over `rounds` (default 3); medians are printed, in ms of CPU per
 * request and over the loop. With `--profile` each mode also runs once under
 * V8's sampling profiler and the time per request is split by area, so
 * what a layer costs beyond the loop can be read off. Run by hand, never in CI.
 */
import process from "node:process";
import { bundleFirst, median, out, root, startDemoProcess } from "./support.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../scripts/permissions.ts";

const MODES = ["loop", "send", "run", "cli", "reports", "loop-process", "flowrun-process"] as const;
type Mode = typeof MODES[number];
const STEPS_PER_FLOW = 5;

/** A profile as V8's `Profiler.stop` returns it. */
interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** What a child reports. */
interface Measured {
  cpuMs: number;
  wallMs: number;
  requests: number;
}

// ---- the parent

async function parent(): Promise<void> {
  const opts = Deno.args.filter((a) => a.startsWith("--"));
  const [requestsArg, roundsArg] = Deno.args.filter((a) => !a.startsWith("--"));
  const requests = Number(requestsArg ?? 5000);
  const rounds = Number(roundsArg ?? 3);
  const profile = opts.includes("--profile");
  const only = opts.find((o) => o.startsWith("--only="))?.slice(7).split(",");
  const modes = MODES.filter((m) => !only || only.includes(m));
  const flags = opts.includes("--default-flags") ? [] : [...RUNNER_V8_FLAGS];
  const profiled = modes.filter((m) => !m.endsWith("-process"));
  const dir = `${out}/request_path`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${dir}/flows`, { recursive: true });
  await Deno.mkdir(`${dir}/warm`, { recursive: true });
  await writeFlows(`${dir}/flows`, Math.ceil(requests / STEPS_PER_FLOW));
  await writeFlows(`${dir}/warm`, 100);
  await bundleFirst();
  const api = await startDemoProcess();
  const results = new Map<Mode, Measured[]>(modes.map((m) => [m, []]));
  const profiles = new Map<Mode, Profile>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of modes) {
        results.get(mode)!.push(await runChild(mode, requests, dir, flags, api.url));
      }
    }
    if (profile) {
      for (const mode of profiled) {
        const file = `${dir}/${mode}.cpuprofile`;
        await runChild(mode, requests, dir, flags, api.url, file);
        profiles.set(mode, JSON.parse(await Deno.readTextFile(file)));
      }
    }
  } finally {
    await api.stop();
  }
  printTable(results, requests, rounds, flags.length > 0);
  if (profile) printProfiles(profiles, requests);
}

async function writeFlows(dir: string, flows: number): Promise<void> {
  const step = (i: number) =>
    `  - name: s${i}\n    request: {url: "\${ENV.BASE_URL}/health"}\n` +
    `    assert: {status: 200, json: [{path: $.json.status, equals: ok}]}\n`;
  const steps = Array.from({ length: STEPS_PER_FLOW }, (_, i) => step(i)).join("");
  for (let i = 0; i < flows; i++) {
    const n = String(i).padStart(5, "0");
    await Deno.writeTextFile(`${dir}/r_${n}.yaml`, `name: Request path ${n}\nsteps:\n${steps}`);
  }
}

async function runChild(
  mode: Mode,
  requests: number,
  dir: string,
  flags: string[],
  baseUrl: string,
  profileFile = "",
): Promise<Measured> {
  const env = { BASE_URL: baseUrl, NO_COLOR: "1" };
  if (mode.endsWith("-process")) return await wholeProcess(mode, requests, dir, flags, env);
  const args = [
    "run",
    ...flags,
    "--allow-all",
    import.meta.filename!,
    "--child",
    mode,
    String(requests),
    dir,
    profileFile,
  ];
  const ran = await new Deno.Command(Deno.execPath(), { args, env, stdout: "piped" }).output();
  const lines = new TextDecoder().decode(ran.stdout).trim().split("\n");
  if (!ran.success) {
    throw new Error(`${mode} exited ${ran.code}: ${new TextDecoder().decode(ran.stderr)}`);
  }
  return JSON.parse(lines.at(-1)!);
}

/** A fresh process, start-up included: its CPU from GNU time. */
async function wholeProcess(
  mode: Mode,
  requests: number,
  dir: string,
  flags: string[],
  env: Record<string, string>,
): Promise<Measured> {
  const files = Math.ceil(requests / STEPS_PER_FLOW);
  const args = mode === "loop-process"
    ? [
      "run",
      ...flags,
      "--allow-all",
      import.meta.filename!,
      "--child",
      "loop-process",
      String(requests),
      dir,
      "",
    ]
    : [
      "run",
      ...RUNNER_PERMISSIONS,
      ...flags,
      `${root}cli.ts`,
      "run",
      `${dir}/flows`,
      "--jobs",
      "1",
      "--report-junit",
      `${dir}/process-junit.xml`,
      "--report-json",
      `${dir}/process-report.json`,
    ];
  const marker = `${dir}/time.txt`;
  const started = performance.now();
  const ran = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S", "-o", marker, Deno.execPath(), ...args],
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - started;
  if (!ran.success) throw new Error(`${mode}: ${new TextDecoder().decode(ran.stderr)}`);
  const [user, system] = (await Deno.readTextFile(marker)).trim().split(/\s+/).slice(-2);
  const sent = mode === "loop-process" ? requests : files * STEPS_PER_FLOW;
  return { cpuMs: (Number(user) + Number(system)) * 1000, wallMs, requests: sent };
}

function printTable(
  results: Map<Mode, Measured[]>,
  requests: number,
  rounds: number,
  shipped: boolean,
): void {
  const perRequest = (m: Mode) => median(results.get(m)!.map((r) => r.cpuMs / r.requests));
  const wall = (m: Mode) => median(results.get(m)!.map((r) => r.wallMs / r.requests));
  // A whole process is compared with the loop's whole process, start-up against start-up.
  const floorOf = (m: Mode): Mode => m.endsWith("-process") ? "loop-process" : "loop";
  console.log(
    `${requests} requests per mode, medians of ${rounds} alternating rounds, ` +
      `${shipped ? "the runner's V8 flags" : "V8's default flags"}, Deno ${Deno.version.deno}`,
  );
  console.log("| mode | CPU per request | over the loop | CPU ratio | wall per request |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const mode of results.keys()) {
    const cpu = perRequest(mode);
    const floor = results.has(floorOf(mode)) ? perRequest(floorOf(mode)) : undefined;
    const over = floor === undefined ? "" : `${(cpu - floor).toFixed(3)} ms`;
    const ratio = floor === undefined ? "" : `${(cpu / floor).toFixed(2)}×`;
    console.log(
      `| ${mode} | ${cpu.toFixed(3)} ms | ${over} | ${ratio} | ${wall(mode).toFixed(3)} ms |`,
    );
  }
  console.log(
    `all rounds (ms CPU per request): ${
      [...results].map(([m, rs]) =>
        `${m} ${rs.map((r) => (r.cpuMs / r.requests).toFixed(3)).join("/")}`
      ).join(", ")
    }`,
  );
}

/** The areas of a profile, first match wins (matched against the URL, or the name without one). */
const AREAS: [string, RegExp][] = [
  ["the profiler", /ext:deno_node\/inspector|node:inspector/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["V8 and Deno outside JS ((program))", /^\(program\)$|^\(root\)$/],
  ["Deno fetch and headers (ext:deno_fetch)", /^ext:deno_fetch/],
  ["Deno streams, events, abort (ext:deno_web)", /^ext:deno_web\//],
  ["Deno webidl (ext:deno_webidl)", /^ext:deno_webidl/],
  ["Deno core and ops", /^ext:core|^op_|^ext:/],
  ["node: modules", /^node:|ext:deno_node/],
  ["flowrun lib/http", /\/lib\/http\//],
  ["flowrun lib/secrets", /\/lib\/secrets\//],
  ["flowrun lib/run", /\/lib\/run\//],
  ["flowrun checks, templates, paths", /\/lib\/(check|expr|select)\//],
  ["flowrun model, io, _util", /\/lib\/(model|io|_util)\//],
  ["flowrun loading", /\/lib\/load\//],
  ["flowrun reports and CLI", /\/lib\/report\/|\/cli\/|\/cli\.ts/],
  ["npm packages", /node_modules|npm/],
  ["the bench itself", /\/bench\//],
];

function areasOf(profile: Profile): { areas: Map<string, number>; top: Map<string, number> } {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]));
  const areas = new Map<string, number>();
  const top = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (us === 0 || functionName === "(idle)") continue;
    const where = url === "" ? functionName : url;
    const area = AREAS.find(([, pattern]) => pattern.test(where))?.[0] ?? `other: ${where}`;
    if (area === AREAS[0][0]) continue;
    areas.set(area, (areas.get(area) ?? 0) + us);
    const place = url.replace(/^file:\/\/.*?\/(lib|cli|bench)\//, "$1/");
    const name = url ? `${functionName || "(anonymous)"} ${place}:${lineNumber + 1}` : functionName;
    top.set(name, (top.get(name) ?? 0) + us);
  }
  return { areas, top };
}

function printProfiles(profiles: Map<Mode, Profile>, requests: number): void {
  const split = new Map([...profiles].map(([m, p]) => [m, areasOf(p)]));
  const names = new Set([...split.values()].flatMap((s) => [...s.areas.keys()]));
  const modes = [...split.keys()];
  const us = (m: Mode, area: string) => (split.get(m)!.areas.get(area) ?? 0) / requests;
  console.log(
    `\nSampled busy time of the main thread, µs per request (profiler on; self time by area):`,
  );
  console.log(`| area | ${modes.join(" | ")} |`);
  console.log(`| --- | ${modes.map(() => "---").join(" | ")} |`);
  const rows = [...names].sort((a, b) => us(modes.at(-1)!, b) - us(modes.at(-1)!, a));
  for (const area of rows) {
    console.log(`| ${area} | ${modes.map((m) => us(m, area).toFixed(1)).join(" | ")} |`);
  }
  const total = (m: Mode) => [...split.get(m)!.areas.values()].reduce((a, b) => a + b, 0);
  console.log(`| all | ${modes.map((m) => (total(m) / requests).toFixed(1)).join(" | ")} |`);
  for (const m of modes) {
    const top = [...split.get(m)!.top].sort((a, b) => b[1] - a[1]).slice(0, 25);
    console.log(`\n${m}, top functions (µs per request):`);
    for (const [name, t] of top) console.log(`  ${(t / requests).toFixed(2)}  ${name}`);
  }
}

// ---- a child: one mode, warmed up, then measured

async function child(mode: Mode, requests: number, dir: string, profileFile: string) {
  const base = Deno.env.get("BASE_URL")!;
  const work = await workFor(mode, base, dir);
  if (mode === "loop-process") {
    await work(requests, "flows");
    Deno.exit(0);
  }
  await work(500, "warm");
  const session = profileFile ? await startProfiler() : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const sent = await work(requests, "flows");
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    await Deno.writeTextFile(profileFile, JSON.stringify(profile));
  }
  const measured: Measured = { cpuMs: (used.user + used.system) / 1000, wallMs, requests: sent };
  console.log(JSON.stringify(measured));
  Deno.exit(0);
}

async function startProfiler() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  return session;
}

/** A function that sends `n` requests (or the flows in `dir/<set>`), returning how many it sent. */
async function workFor(
  mode: Mode,
  base: string,
  dir: string,
): Promise<(n: number, set: string) => Promise<number>> {
  const url = `${base}/health`;
  if (mode === "loop" || mode === "loop-process") {
    return async (n) => {
      for (let i = 0; i < n; i++) await loopRequest(url);
      return n;
    };
  }
  if (mode === "send") {
    const { send } = await import("../lib/http/send.ts");
    const { Deadlines } = await import("../lib/http/deadlines.ts");
    const deadlines = new Deadlines();
    const signal = new AbortController().signal;
    return async (n) => {
      for (let i = 0; i < n; i++) {
        const r = await send({ method: "GET", url, headers: [] }, {
          timeoutMs: 30_000,
          signal,
          deadlines,
        });
        if (r.status !== 200 || !r.json.ok) throw new Error(`status ${r.status}`);
      }
      return n;
    };
  }
  if (mode === "run") {
    const { loadFlows, runFlows } = await import("../lib/api.ts");
    const loaded = new Map<string, Awaited<ReturnType<typeof loadFlows>>>();
    for (const set of ["warm", "flows"]) loaded.set(set, await loadFlows([`${dir}/${set}`]));
    return async (_n, set) => {
      const { flows } = loaded.get(set)!;
      const result = await runFlows(flows, { jobs: 1, signal: new AbortController().signal });
      if (result.status !== "passed") {
        throw new Error(`run ${result.status}: ${JSON.stringify(result.flows[0]).slice(0, 2000)}`);
      }
      return flows.length * STEPS_PER_FLOW;
    };
  }
  const { main } = await import("../cli.ts");
  const reports = (set: string) =>
    mode === "reports"
      ? ["--report-junit", `${dir}/${set}-junit.xml`, "--report-json", `${dir}/${set}-report.json`]
      : [];
  return async (_n, set) => {
    const code = await main(["run", `${dir}/${set}`, "--jobs", "1", ...reports(set)]);
    if (code !== 0) throw new Error(`flowrun run exited ${code}`);
    let files = 0;
    for await (const _ of Deno.readDir(`${dir}/${set}`)) files++;
    return files * STEPS_PER_FLOW;
  };
}

/** The loop: what any runner must do per request, and nothing else. */
async function loopRequest(url: string): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    const response = await fetch(url, { signal: controller.signal });
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    const text = await response.text();
    if (response.status !== 200 || JSON.parse(text).status !== "ok") throw new Error(text);
  } finally {
    clearTimeout(timer);
  }
}

// Last, so every constant above is initialised before either side runs.
if (Deno.args[0] === "--child") {
  await child(Deno.args[1] as Mode, Number(Deno.args[2]), Deno.args[3], Deno.args[4]);
} else {
  await parent();
}
