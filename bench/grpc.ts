/**
 * `deno run -A bench/grpc.ts [calls] [rounds]`: what a unary gRPC step
 * costs in CPU over the plain grpc-js client loop, beside what an HTTP step
 * costs over `fetch` (bench/request_path.ts's `loop` and `run`, here again
 * so both ratios come from the same machine at the same time).
 *
 * The route guide (tests/fixtures/grpc/route_guide_server.ts) and the demo
 * API run in processes of their own; each mode runs in a fresh process,
 * warms up, then makes `calls` (default 3,000) one after the other and
 * reports its own CPU time (user and system, every thread) for the
 * measured part only:
 *
 * - `grpc-loop`: a grpc-js client of proto-loader's definition, one
 *   `GetFeature` after the other with a deadline each, every response's
 *   field read: what any gRPC runner must do per call.
 * - `grpc-run`: the same calls as flows already loaded, run by `runFlows`
 *   without reporters: 5 steps per flow, each asserting the status and one
 *   JSON field.
 * - `http-loop`, `http-run`: the same for GET /health over `fetch` and as
 *   HTTP steps.
 *
 * Medians over `rounds` (default 3) alternating rounds are printed. With
 * `GRPC_BENCH_PROFILE=file` a child (`--child <mode> <calls> <dir> <port>`)
 * writes V8's profile of its measured part there. Run by
 * hand, never in CI; results go to docs/performance-log.md.
 */
import process from "node:process";
import { median, out, root, startDemoProcess } from "./support.ts";
import { RUNNER_V8_FLAGS } from "../scripts/permissions.ts";

const MODES = ["grpc-loop", "grpc-run", "http-loop", "http-run"] as const;
type Mode = typeof MODES[number];
const STEPS_PER_FLOW = 5;
const WARM = 500;

interface Measured {
  cpuMs: number;
  calls: number;
}

async function parent(): Promise<void> {
  const [callsArg, roundsArg] = Deno.args;
  const calls = Number(callsArg ?? 3000);
  const rounds = Number(roundsArg ?? 3);
  const dir = `${out}/grpc`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const grpcServer = await startGrpcProcess();
  const api = await startDemoProcess();
  try {
    await writeFlows(dir, calls, grpcServer.port);
    const results = new Map<Mode, Measured[]>(MODES.map((m) => [m, []]));
    for (let round = 0; round < rounds; round++) {
      for (const mode of MODES) {
        results.get(mode)!.push(await runChild(mode, calls, dir, grpcServer.port, api.url));
      }
    }
    printTable(results, calls, rounds);
  } finally {
    grpcServer.process.kill("SIGTERM");
    await grpcServer.process.status;
    await api.stop();
  }
}

async function startGrpcProcess(): Promise<{ port: number; process: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}tests/fixtures/grpc/route_guide_server.ts`],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  await child.stdout.cancel();
  return { port: Number(new TextDecoder().decode(value).trim()), process: child };
}

async function writeFlows(dir: string, calls: number, port: number): Promise<void> {
  const grpc = (i: number) =>
    `  - name: feature ${i}\n    grpc:\n      target: "127.0.0.1:${port}"\n` +
    `      proto: ${root}tests/fixtures/grpc/protos/route_guide.proto\n` +
    `      method: routeguide.RouteGuide/GetFeature\n` +
    `      message: { latitude: 409146138, longitude: -746188906 }\n` +
    `    assert: { status: 0, json: [{ path: $.json.location.latitude, equals: 409146138 }] }\n`;
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
  mode: Mode,
  calls: number,
  dir: string,
  port: number,
  baseUrl: string,
): Promise<Measured> {
  const args = ["run", ...RUNNER_V8_FLAGS, "-A", import.meta.filename!, "--child", mode];
  const ran = await new Deno.Command(Deno.execPath(), {
    args: [...args, String(calls), dir, String(port)],
    env: { BASE_URL: baseUrl, NO_COLOR: "1" },
    stdout: "piped",
  }).output();
  if (!ran.success) throw new Error(`${mode} exited ${ran.code}`);
  return JSON.parse(new TextDecoder().decode(ran.stdout).trim().split("\n").at(-1)!);
}

function printTable(results: Map<Mode, Measured[]>, calls: number, rounds: number): void {
  const per = (m: Mode) => median(results.get(m)!.map((r) => r.cpuMs / r.calls));
  console.log(`${calls} calls per mode, medians of ${rounds} rounds, Deno ${Deno.version.deno}`);
  console.log("| mode | CPU per call | over its loop | ratio to its loop |");
  console.log("| --- | --- | --- | --- |");
  for (const mode of MODES) {
    const loop = per(mode.startsWith("grpc") ? "grpc-loop" : "http-loop");
    const own = per(mode);
    const over = mode.endsWith("loop") ? "" : `${(own - loop).toFixed(3)} ms`;
    console.log(`| ${mode} | ${own.toFixed(3)} ms | ${over} | ${(own / loop).toFixed(2)}× |`);
  }
}

// ---- a child: one mode, warmed up, then measured

async function child(mode: Mode, calls: number, dir: string, port: number): Promise<void> {
  const work = await workFor(mode, dir, port);
  await work(WARM, "warm");
  // GRPC_BENCH_PROFILE=file: V8's sampling profile of the measured part, to see what a call costs.
  const profileFile = Deno.env.get("GRPC_BENCH_PROFILE");
  const session = profileFile ? await startProfiler() : undefined;
  const cpu = process.cpuUsage();
  const made = await work(calls, "flows");
  const used = process.cpuUsage(cpu);
  if (session && profileFile) {
    const { profile } = await session.post("Profiler.stop");
    await Deno.writeTextFile(profileFile, JSON.stringify(profile));
  }
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, calls: made }));
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

type Work = (n: number, set: string) => Promise<number>;

async function workFor(mode: Mode, dir: string, port: number): Promise<Work> {
  if (mode === "grpc-loop") return await grpcLoop(port);
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

async function grpcLoop(port: number): Promise<Work> {
  const grpc = await import("@grpc/grpc-js");
  const loader = await import("@grpc/proto-loader");
  const def = loader.loadSync(`${root}tests/fixtures/grpc/protos/route_guide.proto`, {
    longs: String,
    enums: String,
    bytes: String,
    defaults: true,
    oneofs: true,
  });
  // deno-lint-ignore no-explicit-any
  const Guide = (grpc.loadPackageDefinition(def) as any).routeguide.RouteGuide;
  const client = new Guide(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const point = { latitude: 409146138, longitude: -746188906 };
  const call = () =>
    new Promise<{ location: { latitude: number } }>((resolve, reject) =>
      client.GetFeature(
        point,
        { deadline: Date.now() + 30_000 },
        (e: Error | null, v: { location: { latitude: number } }) => e ? reject(e) : resolve(v),
      )
    );
  return async (n) => {
    for (let i = 0; i < n; i++) {
      if ((await call()).location.latitude !== point.latitude) throw new Error("wrong feature");
    }
    return n;
  };
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1] as Mode, Number(Deno.args[2]), Deno.args[3], Number(Deno.args[4]));
} else {
  await parent();
}
