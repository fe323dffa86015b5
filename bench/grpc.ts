/**
 * `deno run -A bench/grpc.ts [calls] [rounds] [--processes]`: what a unary
 * gRPC step costs in CPU over the plain grpc-js client loop, beside what an
 * HTTP step costs over `fetch` (bench/request_path.ts's `loop` and `run`,
 * here again so both ratios come from the same machine at the same time).
 *
 * The atlas server (tests/fixtures/grpc/atlas_server.ts) and the demo
 * API run in processes of their own. One process (the runner's V8 flags)
 * warms every mode up, then runs `rounds` (default 7) rounds, each mode
 * making `calls` (default 1,000) calls one after the other in turn, and
 * reads its own CPU time (user and system, every thread) around each: the
 * modes share one heap, one machine load and one moment, so their ratios
 * are the runner's and the kind's work, not a difference between processes.
 * With `--processes` each mode runs in a fresh process of its own instead
 * (the method before 2026-11-26; then the loops run in a small heap the
 * runner's processes do not have).
 *
 * - `grpc-loop`: a grpc-js client of proto-loader's definition, one
 *   `GetPlace` after the other with a deadline each, every response's
 *   field read: what any gRPC runner must do per call.
 * - `grpc-kind`: the same calls through the kind alone (`grpcAttempt` with
 *   the step already loaded), the answer's JSON read: the kind's own share.
 * - `grpc-run`: the same calls as flows already loaded, run by `runFlows`
 *   without reporters: 5 steps per flow, each asserting the status and one
 *   JSON field.
 * - `http-loop`, `http-run`: the same for GET /health over `fetch` and as
 *   HTTP steps.
 *
 * Medians over the rounds are printed. With `GRPC_BENCH_PROFILE=file` the
 * child writes V8's profile of its measured part there. Run by hand, never
 * in CI; results go to docs/performance-log.md.
 */
import process from "node:process";
import v8 from "node:v8";
import { median, out, root, startDemoProcess } from "./support.ts";
import { RUNNER_V8_FLAGS } from "../scripts/permissions.ts";
import { grpcLoop, startGrpcProcess } from "./grpc_loop.ts";

const MODES = ["grpc-loop", "grpc-kind", "grpc-run", "http-loop", "http-run"] as const;
type Mode = typeof MODES[number];
const STEPS_PER_FLOW = 5;
const WARM = 500;

/** CPU per call (ms) and bytes allocated per call of each mode, one sample per round. */
type Samples = Map<Mode, { cpu: number[]; bytes: number[] }>;

async function parent(): Promise<void> {
  const args = Deno.args.filter((a) => a !== "--processes");
  const processes = args.length < Deno.args.length;
  const calls = Number(args[0] ?? 1000);
  const rounds = Number(args[1] ?? 7);
  const dir = `${out}/grpc`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const grpcServer = await startGrpcProcess();
  const api = await startDemoProcess();
  try {
    await writeFlows(dir, calls, grpcServer.port);
    const child = (modes: readonly Mode[], n: number) =>
      runChild(modes, calls, n, dir, grpcServer.port, api.url);
    const results: Samples = new Map(MODES.map((m) => [m, { cpu: [], bytes: [] }]));
    if (!processes) {
      for (const [mode, got] of await child(MODES, rounds)) results.set(mode, got);
    } else {
      for (let round = 0; round < rounds; round++) {
        for (const mode of MODES) {
          const [got] = (await child([mode], 1)).values();
          results.get(mode)!.cpu.push(...got.cpu);
          results.get(mode)!.bytes.push(...got.bytes);
        }
      }
    }
    printTable(results, calls, rounds, processes);
  } finally {
    grpcServer.process.kill("SIGTERM");
    await grpcServer.process.status;
    await api.stop();
  }
}

async function writeFlows(dir: string, calls: number, port: number): Promise<void> {
  const grpc = (i: number) =>
    `  - name: place ${i}\n    grpc:\n      target: "127.0.0.1:${port}"\n` +
    `      proto: ${root}tests/fixtures/grpc/protos/atlas.proto\n` +
    `      method: atlas.Atlas/GetPlace\n` +
    `      message: { latitude: 405551234, longitude: -744442468 }\n` +
    `    assert: { status: 0, json: [{ path: $.json.location.latitude, equals: 405551234 }] }\n`;
  const http = (i: number) =>
    `  - name: health ${i}\n    request: { url: "\${ENV.BASE_URL}/health" }\n` +
    `    assert: { status: 200, json: [{ path: $.json.status, equals: ok }] }\n`;
  for (const [kind, step] of [["grpc", grpc], ["http", http]] as const) {
    for (const [set, n] of [["warm", WARM], ["flows", calls]] as const) {
      await Deno.mkdir(`${dir}/${kind}/${set}`, { recursive: true });
      const steps = Array.from({ length: STEPS_PER_FLOW }, (_, i) => step(i)).join("");
      for (let f = 0; f < Math.ceil(n / STEPS_PER_FLOW); f++) {
        const name = `${dir}/${kind}/${set}/f_${String(f).padStart(5, "0")}.yaml`;
        await Deno.writeTextFile(name, `name: ${kind} ${f}\nsteps:\n${steps}`);
      }
    }
  }
}

async function runChild(
  modes: readonly Mode[],
  calls: number,
  rounds: number,
  dir: string,
  port: number,
  baseUrl: string,
): Promise<Samples> {
  const args = ["run", ...RUNNER_V8_FLAGS, "-A", import.meta.filename!, "--child", modes.join(",")];
  const ran = await new Deno.Command(Deno.execPath(), {
    args: [...args, String(calls), String(rounds), dir, String(port)],
    env: { BASE_URL: baseUrl, NO_COLOR: "1" },
    stdout: "piped",
  }).output();
  if (!ran.success) throw new Error(`${modes} exited ${ran.code}`);
  const line = new TextDecoder().decode(ran.stdout).trim().split("\n").at(-1)!;
  return new Map(Object.entries(JSON.parse(line)) as [Mode, { cpu: number[]; bytes: number[] }][]);
}

function printTable(results: Samples, calls: number, rounds: number, processes: boolean): void {
  const per = (m: Mode) => median(results.get(m)!.cpu);
  const bytes = (m: Mode) => median(results.get(m)!.bytes) / 1024;
  const how = processes ? "each mode in a process of its own" : "all modes in one process";
  console.log(
    `${calls} calls per mode and round, medians of ${rounds} rounds, ${how}, ` +
      `Deno ${Deno.version.deno}`,
  );
  console.log(
    "| mode | CPU per call | over its loop | ratio | allocated per call | over its loop |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const mode of MODES) {
    const base: Mode = mode.startsWith("grpc") ? "grpc-loop" : "http-loop";
    const [own, loop] = [per(mode), per(base)];
    const loopRow = mode === base;
    const over = loopRow ? "" : `${(own - loop).toFixed(3)} ms`;
    const more = loopRow ? "" : `${(bytes(mode) - bytes(base)).toFixed(1)} KiB`;
    console.log(
      `| ${mode} | ${own.toFixed(3)} ms | ${over} | ${(own / loop).toFixed(2)}× | ` +
        `${bytes(mode).toFixed(1)} KiB | ${more} |`,
    );
  }
}

// ---- a child: its modes warmed up, then measured in turn, round after round

async function child(
  modes: Mode[],
  calls: number,
  rounds: number,
  dir: string,
  port: number,
): Promise<void> {
  const works = new Map<Mode, Work>();
  for (const mode of modes) works.set(mode, await workFor(mode, dir, port));
  for (const work of works.values()) await work(WARM, "warm");
  // GRPC_BENCH_PROFILE=file: V8's sampling profile of the measured part, to see what a call costs.
  const profileFile = Deno.env.get("GRPC_BENCH_PROFILE");
  const session = profileFile ? await startProfiler() : undefined;
  const samples: Record<string, { cpu: number[]; bytes: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [mode, work] of works) {
      const cpu = process.cpuUsage();
      const allocated = allocatedBytes();
      const made = await work(calls, "flows");
      const used = process.cpuUsage(cpu);
      const sample = samples[mode] ??= { cpu: [], bytes: [] };
      sample.cpu.push((used.user + used.system) / 1000 / made);
      sample.bytes.push((allocatedBytes() - allocated) / made);
    }
  }
  if (session && profileFile) {
    const { profile } = await session.post("Profiler.stop");
    await Deno.writeTextFile(profileFile, JSON.stringify(profile));
  }
  console.log(JSON.stringify(samples));
  Deno.exit(0);
}

/** The bytes V8 has allocated in this process so far: counted, so the same on a busy machine. */
function allocatedBytes(): number {
  return (v8.getHeapStatistics() as unknown as { total_allocated_bytes: number })
    .total_allocated_bytes;
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

type Work = (n: number, set: string) => Promise<number>;

async function workFor(mode: Mode, dir: string, port: number): Promise<Work> {
  if (mode === "grpc-loop") return await grpcLoop(port);
  if (mode === "grpc-kind") return await grpcKind(dir);
  if (mode === "http-loop") {
    const url = `${Deno.env.get("BASE_URL")}/health`;
    return async (n) => {
      for (let i = 0; i < n; i++) await httpRequest(url);
      return n;
    };
  }
  const { loadFlows, runFlows } = await import("../lib/api.ts");
  const kind = mode === "grpc-run" ? "grpc" : "http";
  const loaded = new Map<string, Awaited<ReturnType<typeof loadFlows>>>();
  for (const set of ["warm", "flows"]) loaded.set(set, await loadFlows([`${dir}/${kind}/${set}`]));
  return async (_n, set) => {
    const { flows } = loaded.get(set)!;
    const result = await runFlows(flows, { jobs: 1, signal: new AbortController().signal });
    if (result.status !== "passed") throw new Error(`run ${result.status}`);
    return flows.length * STEPS_PER_FLOW;
  };
}

/** bench/request_path.ts's loop: `fetch`, a timeout over the body, every header, the body parsed. */
async function httpRequest(url: string): Promise<void> {
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

/** The kind alone: the first step's spec, called as the runner calls it, the answer's JSON read. */
async function grpcKind(dir: string): Promise<Work> {
  const { loadFlows } = await import("../lib/api.ts");
  const { grpcAttempt } = await import("../lib/kinds/grpc/attempt.ts");
  const { evaluate, render, toText } = await import("../lib/expr/template.ts");
  const { flows } = await loadFlows([`${dir}/grpc/warm/f_00000.yaml`]);
  const spec = flows[0].steps[0].call!.spec as Parameters<typeof grpcAttempt>[0];
  const scope = {} as Parameters<typeof render>[1];
  const call = {
    render: (value: Parameters<typeof render>[0]) => render(value, scope),
    text: (template: Parameters<typeof evaluate>[0]) => toText(evaluate(template, scope)),
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    network: () => ({ insecure: false }),
    maxBodyBytes: 10 * 1024 * 1024,
    secret: () => {},
  };
  return async (n) => {
    for (let i = 0; i < n; i++) {
      const outcome = await grpcAttempt(spec, call);
      if (JSON.parse(outcome.response!.body).location.latitude !== 405551234) {
        throw new Error(`wrong answer: ${JSON.stringify(outcome)}`);
      }
    }
    return n;
  };
}

if (Deno.args[0] === "--child") {
  const [, modes, calls, rounds, dir, port] = Deno.args;
  await child(modes.split(",") as Mode[], Number(calls), Number(rounds), dir, Number(port));
} else {
  await parent();
}
