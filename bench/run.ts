/**
 * `deno task bench [flows] [repeats] [--readme]`: runner overhead against a raw fetch loop.
 *
 * Starts the demo API in its own process, writes N copies of
 * bench/job_flow.yaml, then times `flowrun run` (with both reports),
 * bench/raw_fetch.mjs with Deno (plain, and as a runner: a timeout, every
 * header and the body as text per request) and, when `node` is installed,
 * with Node, sending the same requests in the same order. Each is run
 * `repeats` times, alternating; the median wall time and the peak memory
 * (max RSS, from GNU time when installed) are printed with the ratios, and
 * the CPU time (user and system, from GNU time) of the raw loop and of
 * flowrun. Then the same run with a warm `--cache-dir`; `--jobs 8` against
 * the raw loop running 8 flows at a time; start-up: a one-request flow
 * against a Deno script sending that request (medians of fresh processes);
 * loading and checking the flows in a fresh process (bench/load.ts), without
 * and with a warm `--cache-dir`; and the phases of a run measured
 * in-process. Last, the same figures as a Markdown table: with `--readme`
 * it replaces the README's block for this many flows (see `readmeBlock`).
 * Run by hand, never in CI.
 */
import {
  bundleFirst,
  flowrunArgs as cli,
  hasGnuTime,
  measure,
  median,
  medianCpu,
  out,
  peak,
  readmeBlock,
  root,
  type Sample,
  startDemoProcess,
  writeJobFlows,
} from "./support.ts";
import { RUNNER_V8_FLAGS } from "../scripts/permissions.ts";

const writeReadme = Deno.args.includes("--readme");
const [flowsArg, repeatsArg] = Deno.args.filter((a) => a !== "--readme");
const flows = Number(flowsArg ?? 200);
const repeats = Number(repeatsArg ?? 3);

await Deno.remove(out, { recursive: true }).catch(() => {});
await Deno.mkdir(`${out}/flows`, { recursive: true });
await writeJobFlows(`${out}/flows`, flows);

await bundleFirst();
const api = await startDemoProcess();

const env = { BASE_URL: api.url, NO_COLOR: "1" };
// The raw scripts run with a DENO_DIR of their own. Deno keeps one V8 code cache per module,
// its own lazily loaded ones (fetch, streams, headers) included, and V8 rejects a cache written
// under other flags: sharing a DENO_DIR, a raw script (Deno's default flags) and flowrun
// (--no-lazy) each threw away what the other wrote and compiled Deno's fetch again, which cost
// the process after a raw run about 30 ms. Apart, each runs as it does on its own.
const rawEnv = { ...env, DENO_DIR: `${out}/deno-dir-raw` };
const gnuTime = await hasGnuTime();
// --jobs 1: the same requests in the same order as the sequential raw loop.
const flowrunArgs = [
  ...cli,
  "run",
  `${out}/flows`,
  "--jobs",
  "1",
  "--report-junit",
  `${out}/junit.xml`,
  "--report-json",
  `${out}/report.json`,
];
const rawArgs = ["run", "--allow-net", "--allow-env", `${root}bench/raw_fetch.mjs`, String(flows)];
const runnerFloorArgs = [...rawArgs, "1", "runner"];
const node = await new Deno.Command("node", { args: ["--version"], stdout: "null" }).output()
  .then((o) => o.success, () => false);
const nodeArgs = [`${root}bench/raw_fetch.mjs`, String(flows)];
const requests = flows * 6;
/** The Markdown table's rows: what, the floor it is measured against, flowrun, the ratio. */
const rows: string[][] = [];
/** Lines under the table. */
const notes: string[] = [];
const s = (seconds: number) => `${seconds.toFixed(2)} s`;
const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;
const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
try {
  // One warm-up of each so module caches and the server's JIT are equally warm.
  // With --cache-dir, once the cache holds every flow (the warm-up run fills it).
  const cached = [...flowrunArgs, "--cache-dir", `${out}/cache`];
  await measure(rawArgs, rawEnv, false);
  await measure(runnerFloorArgs, rawEnv, false);
  await measure(flowrunArgs, env, false);
  await measure(cached, env, false);
  if (node) await measure(nodeArgs, env, false, "node");
  const raw: Sample[] = [];
  const runnerFloor: Sample[] = [];
  const nodeRaw: Sample[] = [];
  const flowrun: Sample[] = [];
  const cachedRuns: number[] = [];
  // Alternating, so every variant sees the same machine and the same server state (a block
  // of runs measured after another was up to 12% slower here for that alone).
  for (let i = 0; i < repeats; i++) {
    raw.push(await measure(rawArgs, rawEnv, gnuTime));
    runnerFloor.push(await measure(runnerFloorArgs, rawEnv, gnuTime));
    if (node) nodeRaw.push(await measure(nodeArgs, env, gnuTime, "node"));
    flowrun.push(await measure(flowrunArgs, env, gnuTime));
    cachedRuns.push((await measure(cached, env, false)).seconds);
  }
  const rawTime = median(raw.map((s) => s.seconds));
  const floorTime = median(runnerFloor.map((s) => s.seconds));
  const flowrunTime = median(flowrun.map((s) => s.seconds));
  console.log(
    `${flows} flows, ${requests} requests, median of ${repeats} runs, Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`,
  );
  console.log(
    `raw fetch loop : ${rawTime.toFixed(2)} s  (${
      (requests / rawTime).toFixed(0)
    } req/s)  peak memory ${peak(raw)}`,
  );
  console.log(
    `runner floor   : ${floorTime.toFixed(2)} s  (the loop with a timeout, every header and ` +
      `the body as text per request: ${times(floorTime, rawTime)} the raw loop)`,
  );
  rows.push([
    `${flows} flows end to end, \`--jobs 1\`, JUnit and JSON reports`,
    `${s(rawTime)} (Deno \`fetch\` loop)`,
    s(flowrunTime),
    times(flowrunTime, rawTime),
  ]);
  notes.push(
    `The same loop doing, per request, what any runner must (a timeout that covers the body, ` +
      `every header read, the body read as text): ${s(floorTime)}, ${
        times(floorTime, rawTime)
      } the plain loop.`,
  );
  if (node) {
    const nodeTime = median(nodeRaw.map((s) => s.seconds));
    console.log(
      `node fetch loop: ${nodeTime.toFixed(2)} s  (${
        (requests / nodeTime).toFixed(0)
      } req/s)  peak memory ${peak(nodeRaw)}; flowrun is ${(flowrunTime / nodeTime).toFixed(2)}×`,
    );
    rows.push([
      "the same against Node.js's `fetch` loop",
      s(nodeTime),
      s(flowrunTime),
      times(flowrunTime, nodeTime),
    ]);
  }
  console.log(
    `flowrun        : ${flowrunTime.toFixed(2)} s  (${
      (requests / flowrunTime).toFixed(0)
    } req/s)  peak memory ${peak(flowrun)}`,
  );
  console.log(
    `ratio          : ${(flowrunTime / rawTime).toFixed(2)}× (runner overhead ${
      (((flowrunTime - rawTime) / requests) * 1000).toFixed(3)
    } ms per request)`,
  );
  rows.push(["peak memory (max RSS)", peak(raw), peak(flowrun), ""]);
  // CPU time counts the runner's own work whether or not it overlaps a server's reply; the
  // server runs in its own process, so neither side's figure includes it.
  const [rawCpu, flowrunCpu] = [medianCpu(raw), medianCpu(flowrun)];
  if (rawCpu !== undefined && flowrunCpu !== undefined) {
    const work = ((flowrunCpu - rawCpu) / requests) * 1000;
    console.log(
      `cpu time       : raw loop ${rawCpu.toFixed(2)} s, flowrun ${flowrunCpu.toFixed(2)} s (${
        (flowrunCpu / rawCpu).toFixed(2)
      }×; runner work ${work.toFixed(3)} ms of CPU per request)`,
    );
    rows.push([
      "CPU time (user and system); flowrun's over the loop's, per request",
      s(rawCpu),
      s(flowrunCpu),
      `${work.toFixed(3)} ms per request`,
    ]);
  }
  const cachedTime = median(cachedRuns);
  console.log(
    `--cache-dir    : ${cachedTime.toFixed(2)} s with every flow cached (${
      (cachedTime / rawTime).toFixed(2)
    }×)`,
  );
  rows.push([
    "end to end with every flow in a warm `--cache-dir`",
    s(rawTime),
    s(cachedTime),
    times(cachedTime, rawTime),
  ]);
  // Concurrency 8: flowrun --jobs 8 against the raw loop running 8 flows at a time.
  const raw8: number[] = [];
  const flowrun8: number[] = [];
  const jobs8 = flowrunArgs.map((arg, i) => flowrunArgs[i - 1] === "--jobs" ? "8" : arg);
  for (let i = 0; i < repeats; i++) {
    raw8.push((await measure([...rawArgs, "8"], rawEnv, false)).seconds);
    flowrun8.push((await measure(jobs8, env, false)).seconds);
  }
  const [raw8Time, flowrun8Time] = [median(raw8), median(flowrun8)];
  console.log(
    `concurrency 8  : raw loop ${raw8Time.toFixed(2)} s, flowrun --jobs 8 ${
      flowrun8Time.toFixed(2)
    } s (${(flowrun8Time / raw8Time).toFixed(2)}×)`,
  );
  rows.push([
    "`--jobs 8` against the loop running 8 flows at a time",
    s(raw8Time),
    s(flowrun8Time),
    times(flowrun8Time, raw8Time),
  ]);
  // Start-up: one request, fresh processes, alternating so both see the same machine.
  await Deno.writeTextFile(
    `${out}/one.yaml`,
    'name: one\nsteps:\n  - name: health\n    request: {url: "${ENV.BASE_URL}/health"}\n    assert: {status: 200}\n',
  );
  const oneArgs = ["run", "--allow-net", "--allow-env", `${root}bench/one_request.ts`];
  const flowrunOne = [...cli, "run", `${out}/one.yaml`];
  const startRaw: number[] = [];
  const startFlowrun: number[] = [];
  await measure(oneArgs, rawEnv, false);
  await measure(flowrunOne, env, false);
  for (let i = 0; i < 15; i++) {
    startRaw.push((await measure(oneArgs, rawEnv, false)).seconds);
    startFlowrun.push((await measure(flowrunOne, env, false)).seconds);
  }
  const [oneRaw, oneFlowrun] = [median(startRaw), median(startFlowrun)];
  console.log(
    `start-up       : one request, median of 15 fresh processes: Deno fetch script ${
      (oneRaw * 1000).toFixed(0)
    } ms, flowrun ${(oneFlowrun * 1000).toFixed(0)} ms (${(oneFlowrun / oneRaw).toFixed(2)}×)`,
  );
  rows.push([
    "start-up: a one-request flow, median of 15 fresh processes",
    `${ms(oneRaw)} (a Deno script sending it)`,
    ms(oneFlowrun),
    times(oneFlowrun, oneRaw),
  ]);
  // Loading and checking cold: fresh processes, without and with a warm --cache-dir, alternating.
  const loadArgs = [
    "run",
    "--allow-all",
    ...RUNNER_V8_FLAGS,
    `${root}bench/load.ts`,
    `${out}/flows`,
  ];
  const coldLoad = async (args: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), { args, stderr: "inherit" }).output();
    return Number(new TextDecoder().decode(output.stdout));
  };
  await coldLoad([...loadArgs, `${out}/load-cache`]);
  const coldPlain: number[] = [];
  const coldCached: number[] = [];
  for (let i = 0; i < 7; i++) {
    coldPlain.push(await coldLoad(loadArgs));
    coldCached.push(await coldLoad([...loadArgs, `${out}/load-cache`]));
  }
  const [perFile, perFileCached] = [median(coldPlain) / flows, median(coldCached) / flows];
  console.log(
    `load cold      : fresh process, median of 7: ${perFile.toFixed(2)} ms per file, ${
      perFileCached.toFixed(2)
    } ms with a warm --cache-dir`,
  );
  notes.push(
    `Loading and checking in a fresh process: ${perFile.toFixed(2)} ms per flow file, ${
      perFileCached.toFixed(2)
    } ms with a warm \`--cache-dir\` (medians of 7).`,
  );
  // Where flowrun's time goes, measured in this process against the same server.
  const { loadFlows } = await import("../lib/load/suite.ts");
  const { runFlows } = await import("../lib/run/flows.ts");
  const { toJUnitXml } = await import("../lib/report/junit.ts");
  const { toJsonReport } = await import("../lib/report/json.ts");
  const readEnv = (name: string) => (env as Record<string, string>)[name];
  let t = performance.now();
  const { flows: loaded } = await loadFlows([`${out}/flows`], { env: readEnv });
  const loadMs = performance.now() - t;
  t = performance.now();
  const result = await runFlows(loaded, { env: readEnv, jobs: 1 });
  const runMs = performance.now() - t;
  t = performance.now();
  toJUnitXml(result);
  JSON.stringify(toJsonReport(result));
  const reportMs = performance.now() - t;
  const phases = `load and check ${loadMs.toFixed(0)} ms (${
    (loadMs / flows).toFixed(2)
  } ms per file), run ${runMs.toFixed(0)} ms (${
    ((runMs / requests) * 1000).toFixed(0)
  } µs per request), reports ${reportMs.toFixed(0)} ms`;
  console.log(`flowrun phases : ${phases}`);
  notes.push(`Phases in one warm process: ${phases}.`);
  const table = [
    `\`deno task bench ${flows} ${repeats}\` on ${
      new Date().toISOString().slice(0, 10)
    }: ${flows} flows, ${requests} requests, medians of ${repeats} alternating runs; ` +
    `Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs, the demo API in its own process.`,
    "",
    "| measure | floor | flowrun | ratio |",
    "| --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    ...notes.map((note) => `- ${note}`),
  ].join("\n");
  console.log(`\n${table}`);
  if (writeReadme) await readmeBlock(`${flows} flows`, table);
} finally {
  await api.stop();
}
