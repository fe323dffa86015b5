/**
 * Shared by the benchmarks: the demo API in its own process, and timing a
 * command with its peak memory. Benchmarks are run by hand, never in CI.
 */
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../scripts/permissions.ts";
import { writeBundle } from "../scripts/bundle.ts";

/** The project root, with a trailing slash. */
export const root: string = new URL("..", import.meta.url).pathname;
/** Where benchmarks write their flows and reports (ignored by git). */
export const out: string = `${root}bench/out`;

/**
 * Writes the bundle (`deno task bundle`) before a benchmark starts flowrun, so that it measures
 * what an installed flowrun runs; says so in one line.
 */
export async function bundleFirst(): Promise<void> {
  const { files, inputs } = await writeBundle();
  console.log(`bundle: ${files} files from ${inputs} inputs (cli.ts runs it)`);
}

/**
 * Arguments that run the flowrun CLI as it ships: its permissions and heap flags; `cli.ts` runs
 * the bundle when it is current ({@linkcode bundleFirst}).
 */
export const flowrunArgs: string[] = [
  "run",
  ...RUNNER_PERMISSIONS,
  ...RUNNER_V8_FLAGS,
  `${root}cli.ts`,
];

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts the demo API in its own process, so it does not share the runner's CPU time slice. */
export async function startDemoProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", `${root}examples/demo_api.ts`, "--port", String(port)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // Wait for the server's "listening" line rather than sleeping a guessed time.
  const reader = server.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  await server.stdout.cancel();
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      server.kill("SIGTERM");
      await server.status;
    },
  };
}

/** Whether GNU time is installed, for peak memory (max RSS). */
export async function hasGnuTime(): Promise<boolean> {
  try {
    return (await new Deno.Command("/usr/bin/time", { args: ["-f", "%M", "true"], stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

/** One timed run. */
export interface Sample {
  seconds: number;
  maxRssMiB?: number;
  /** CPU time of the process (user and system, every thread), with GNU time. */
  cpuSeconds?: number;
}

/**
 * Runs `deno <args>` (or another program) and measures wall time and, with
 * GNU time, peak memory. Exit codes 0 and 1 are fine.
 */
export async function measure(
  args: string[],
  env: Record<string, string>,
  gnuTime: boolean,
  program: string = Deno.execPath(),
): Promise<Sample> {
  const marker = `${out}/time.txt`;
  const command = gnuTime ? "/usr/bin/time" : program;
  const fullArgs = gnuTime ? ["-f", "%e %M %U %S", "-o", marker, program, ...args] : args;
  const started = performance.now();
  const result = await new Deno.Command(command, {
    args: fullArgs,
    cwd: root,
    env,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  const seconds = (performance.now() - started) / 1000;
  if (result.code > 1) {
    throw new Error(
      `${args.join(" ")} exited ${result.code}: ${new TextDecoder().decode(result.stderr)}`,
    );
  }
  if (!gnuTime) return { seconds };
  const [, rssKiB, user, system] = (await Deno.readTextFile(marker)).trim().split(/\s+/).slice(-4);
  return { seconds, maxRssMiB: Number(rssKiB) / 1024, cpuSeconds: Number(user) + Number(system) };
}

/** The median of some numbers. */
export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The median CPU time of samples, when GNU time measured it. */
export function medianCpu(samples: Sample[]): number | undefined {
  const known = samples.flatMap((s) => s.cpuSeconds === undefined ? [] : [s.cpuSeconds]);
  return known.length ? median(known) : undefined;
}

/** Peak memory of samples, or why it is unknown. */
export function peak(samples: Sample[]): string {
  const known = samples.filter((s) => s.maxRssMiB !== undefined);
  return known.length
    ? `${Math.max(...known.map((s) => s.maxRssMiB!)).toFixed(0)} MiB`
    : "n/a (no GNU time)";
}

/**
 * Writes `count` copies of bench/job_flow.yaml into `dir` (which must exist),
 * each with its own number in its name, as job_00000.yaml and on.
 */
export async function writeJobFlows(dir: string, count: number): Promise<void> {
  const template = await Deno.readTextFile(`${root}bench/job_flow.yaml`);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(5, "0");
    await Deno.writeTextFile(`${dir}/job_${n}.yaml`, template.replace("NUMBER", n));
  }
}

/** The documents that hold the benchmarks' generated blocks: the README the 200-flow one. */
const BLOCK_FILES = ["README.md", "docs/performance-log.md"];

/**
 * Replaces the generated block `name` (between `<!-- bench:NAME:start -->`
 * and `<!-- bench:NAME:end -->`) with `text` in whichever of
 * {@linkcode BLOCK_FILES} holds it, so the figures shown are what the
 * benchmark measured last. Throws when none does (add the two markers where
 * the block belongs).
 */
export async function readmeBlock(name: string, text: string): Promise<void> {
  const start = `<!-- bench:${name}:start (written by the benchmark with --readme) -->`;
  const end = `<!-- bench:${name}:end -->`;
  for (const file of BLOCK_FILES) {
    const path = `${root}${file}`;
    const doc = await Deno.readTextFile(path);
    const from = doc.indexOf(start);
    const to = doc.indexOf(end);
    if (from === -1 || to < from) continue;
    await Deno.writeTextFile(
      path,
      `${doc.slice(0, from + start.length)}\n${text}\n${doc.slice(to)}`,
    );
    // Aligned and wrapped as `deno fmt --check` wants it.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path] }).output();
    console.log(`${file}: block "${name}" rewritten`);
    return;
  }
  throw new Error(
    `No block "${name}" in ${BLOCK_FILES.join(" or ")}: add the lines\n${start}\n${end}`,
  );
}
