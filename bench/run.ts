/**
 * `deno task bench [flows] [repeats]`: runner overhead against a raw fetch loop.
 *
 * Starts the demo API in its own process, writes N copies of
 * bench/job_flow.yaml, then times `flowrun run` (with both reports) and
 * bench/raw_fetch.ts sending the same requests in the same order. Each is run
 * `repeats` times; the median wall time and the peak memory (max RSS, from
 * GNU time when installed) are printed with the ratio. Run by hand, never in CI.
 */
import { RUNNER_PERMISSIONS } from "../scripts/permissions.ts";

const root = new URL("..", import.meta.url).pathname;
const flows = Number(Deno.args[0] ?? 200);
const repeats = Number(Deno.args[1] ?? 3);
const out = `${root}bench/out`;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function hasGnuTime(): Promise<boolean> {
  try {
    return (await new Deno.Command("/usr/bin/time", { args: ["-f", "%M", "true"], stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

interface Sample {
  seconds: number;
  maxRssMiB?: number;
}

async function measure(
  args: string[],
  env: Record<string, string>,
  gnuTime: boolean,
): Promise<Sample> {
  const marker = `${out}/time.txt`;
  const command = gnuTime ? "/usr/bin/time" : Deno.execPath();
  const fullArgs = gnuTime ? ["-f", "%e %M", "-o", marker, Deno.execPath(), ...args] : args;
  const started = performance.now();
  const result = await new Deno.Command(command, {
    args: fullArgs,
    cwd: root,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  if (result.code > 1) {
    throw new Error(
      `${args.join(" ")} exited ${result.code}: ${new TextDecoder().decode(result.stderr)}`,
    );
  }
  if (!gnuTime) return { seconds };
  const [, rssKiB] = (await Deno.readTextFile(marker)).trim().split(/\s+/).slice(-2);
  return { seconds, maxRssMiB: Number(rssKiB) / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await Deno.remove(out, { recursive: true }).catch(() => {});
await Deno.mkdir(`${out}/flows`, { recursive: true });
const template = await Deno.readTextFile(`${root}bench/job_flow.yaml`);
for (let i = 0; i < flows; i++) {
  const n = String(i).padStart(4, "0");
  await Deno.writeTextFile(`${out}/flows/job_${n}.yaml`, template.replace("NUMBER", n));
}

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

const env = { BASE_URL: `http://127.0.0.1:${port}`, NO_COLOR: "1" };
const gnuTime = await hasGnuTime();
const flowrunArgs = [
  "run",
  ...RUNNER_PERMISSIONS,
  `${root}cli.ts`,
  "run",
  `${out}/flows`,
  "--report-junit",
  `${out}/junit.xml`,
  "--report-json",
  `${out}/report.json`,
];
const rawArgs = ["run", "--allow-net", "--allow-env", `${root}bench/raw_fetch.ts`, String(flows)];
try {
  // One warm-up of each so module caches and the server's JIT are equally warm.
  await measure(rawArgs, env, false);
  await measure(flowrunArgs, env, false);
  const raw: Sample[] = [];
  const flowrun: Sample[] = [];
  for (let i = 0; i < repeats; i++) {
    raw.push(await measure(rawArgs, env, gnuTime));
    flowrun.push(await measure(flowrunArgs, env, gnuTime));
  }
  const requests = flows * 6;
  const rawTime = median(raw.map((s) => s.seconds));
  const flowrunTime = median(flowrun.map((s) => s.seconds));
  const rss = (xs: Sample[]) =>
    gnuTime ? `${Math.max(...xs.map((s) => s.maxRssMiB!)).toFixed(0)} MiB` : "n/a (no GNU time)";
  console.log(
    `${flows} flows, ${requests} requests, median of ${repeats} runs, Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`,
  );
  console.log(
    `raw fetch loop : ${rawTime.toFixed(2)} s  (${
      (requests / rawTime).toFixed(0)
    } req/s)  peak memory ${rss(raw)}`,
  );
  console.log(
    `flowrun        : ${flowrunTime.toFixed(2)} s  (${
      (requests / flowrunTime).toFixed(0)
    } req/s)  peak memory ${rss(flowrun)}`,
  );
  console.log(
    `ratio          : ${(flowrunTime / rawTime).toFixed(2)}× (runner overhead ${
      (((flowrunTime - rawTime) / requests) * 1000).toFixed(3)
    } ms per request)`,
  );
  // Where flowrun's time goes, measured in this process against the same server.
  const { loadFlows } = await import("../lib/suite.ts");
  const { runFlows } = await import("../lib/run.ts");
  const { toJUnitXml } = await import("../lib/report/junit.ts");
  const { toJsonReport } = await import("../lib/report/json.ts");
  const readEnv = (name: string) => (env as Record<string, string>)[name];
  let t = performance.now();
  const { flows: loaded } = await loadFlows([`${out}/flows`], { env: readEnv });
  const loadMs = performance.now() - t;
  t = performance.now();
  const result = await runFlows(loaded, { env: readEnv });
  const runMs = performance.now() - t;
  t = performance.now();
  toJUnitXml(result);
  JSON.stringify(toJsonReport(result));
  const reportMs = performance.now() - t;
  console.log(
    `flowrun phases : load and check ${loadMs.toFixed(0)} ms (${
      (loadMs / flows).toFixed(2)
    } ms per file), ` +
      `run ${runMs.toFixed(0)} ms (${
        ((runMs / requests) * 1000).toFixed(0)
      } µs per request), reports ${reportMs.toFixed(0)} ms`,
  );
} finally {
  server.kill("SIGTERM");
  await server.status;
}
