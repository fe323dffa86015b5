/**
 * `deno run -A bench/workers.ts [flows] [--workers 1,2,4] [--jobs 8] [--readme]`:
 * how throughput grows with `--workers`, on two suites of N flows: the
 * bench's flow (bench/job_flow.yaml: login, create, poll three times, delete;
 * six small requests) against the demo API, and three GETs of an 86 KB JSON
 * body with checks against bench/static_json.ts, whose answers cost the
 * client far more than the server. Each server runs in its own process,
 * pinned to the last CPU with `taskset` so that its work is not flowrun's;
 * flowrun is pinned to the other CPUs when there are at least three, else
 * left on all of them (on two CPUs, flowrun's CPU share above 100 % is the
 * proof that it used both). Prints, per run: wall time,
 * requests/s, flowrun's CPU time (user and system, every thread, GNU time)
 * per request and as a share of the wall time, the server's CPU share, and
 * peak memory; the median of `--repeats` runs (default 3), alternating.
 * The plain loop sends the same requests at the same concurrency first
 * (bench/raw_fetch.mjs as the runner floor), so that each row reads against it.
 * Also the CPU a run of two flows spends on starting one worker. With
 * `--readme` the table replaces the README's `workers` block. Run by hand,
 * never in CI.
 */
import {
  flowrunArgs,
  hasGnuTime,
  measure,
  median,
  out,
  readmeBlock,
  root,
  writeJobFlows,
} from "./support.ts";

const args = [...Deno.args];
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const writeReadme = args.includes("--readme");
const workersList = option("--workers", "1,2,4").split(",").map(Number);
const jobs = Number(option("--jobs", "8"));
const repeats = Number(option("--repeats", "3"));
const flows = Number(args.filter((a) => a !== "--readme")[0] ?? 2000);
/** The suites: where their flows come from, the server, and requests per flow. */
const SUITES = [
  { name: "demo", server: "examples/demo_api.ts", requests: 6 },
  { name: "large bodies", server: "bench/static_json.ts", requests: 3 },
] as const;
type Suite = typeof SUITES[number];
const cpus = navigator.hardwareConcurrency;
const serverCpu = cpus - 1;
const clientCpus = cpus >= 3 ? `0-${cpus - 2}` : undefined;

if (!(await hasGnuTime())) throw new Error("GNU time (/usr/bin/time) is needed for CPU times");

/** A suite's server pinned to one CPU, and its CPU time so far (from /proc). */
async function startPinned(suite: Suite) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const server = new Deno.Command("taskset", {
    args: [
      "-c",
      String(serverCpu),
      Deno.execPath(),
      "run",
      "--allow-net",
      `${root}${suite.server}`,
      "--port",
      String(port),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = server.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  await server.stdout.cancel();
  const ticks = async () => {
    const stat = await Deno.readTextFile(`/proc/${server.pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cpuSeconds: ticks,
    async stop() {
      server.kill("SIGTERM");
      await server.status;
    },
  };
}

/**
 * One run of a suite's flows in `dir` at `workers`, against a fresh server;
 * `workers` 0 is the plain loop instead (bench/raw_fetch.mjs as the runner
 * floor: a timeout over the body, every header read, the body as text), the
 * same requests at the same concurrency on one thread.
 */
async function once(suite: Suite, dir: string, workers: number, count: number) {
  const api = await startPinned(suite);
  try {
    const before = await api.cpuSeconds();
    const runArgs = workers === 0 ? loopArgs(suite, count) : [
      ...flowrunArgs,
      "run",
      dir,
      "--jobs",
      String(jobs),
      "--workers",
      String(workers),
      "--report-json",
      `${out}/workers/report-${workers}.json`,
    ];
    const program = clientCpus ? "taskset" : Deno.execPath();
    const sample = await measure(
      clientCpus ? ["-c", clientCpus, Deno.execPath(), ...runArgs] : runArgs,
      { BASE_URL: api.url, NO_COLOR: "1" },
      true,
      program,
    );
    const server = (await api.cpuSeconds()) - before;
    const requests = count * suite.requests;
    return {
      seconds: sample.seconds,
      rps: requests / sample.seconds,
      cpuMsPerRequest: (sample.cpuSeconds! * 1000) / requests,
      cpuShare: sample.cpuSeconds! / sample.seconds,
      serverShare: server / sample.seconds,
      rss: sample.maxRssMiB!,
    };
  } finally {
    await api.stop();
  }
}

type Sample = Awaited<ReturnType<typeof once>>;

/** The plain loop's arguments: `count` flows of `suite`, `jobs` at a time, as a runner must. */
function loopArgs(suite: Suite, count: number): string[] {
  const shape = suite.name === "demo" ? [] : ["large"];
  return [
    "run",
    "--allow-net",
    "--allow-env",
    `${root}bench/raw_fetch.mjs`,
    String(count),
    String(jobs),
    "runner",
    ...shape,
  ];
}

/** A row's first two cells: the suite, and the threads (or the loop). */
const label = (suite: Suite, w: number) =>
  w === 0 ? `| ${suite.name} | the loop, ${jobs} at a time |` : `| ${suite.name} | ${w} |`;

/** The large-bodies flow: three GETs of the static server's 86 KB body, with checks. */
const LARGE = (n: string) =>
  `name: large ${n}
steps:
  - name: a
    request: {url: "\${ENV.BASE_URL}/a?n=${n}"}
    assert:
      status: 200
      json:
        - {path: "$.json.items[1499].id", equals: 1499}
        - {path: "$.json.items[7].name", equals: item-7}
  - name: b
    request: {url: "\${ENV.BASE_URL}/b?n=${n}"}
    assert: {status: 200, json: [{path: "$.json.items[3].price", equals: 3}]}
  - name: c
    request: {url: "\${ENV.BASE_URL}/c?n=${n}"}
    assert: {status: 200}
`;

/** Writes `count` flows of `suite` into `dir`. */
async function writeSuite(suite: Suite, dir: string, count: number): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  if (suite.name === "demo") return await writeJobFlows(dir, count);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(5, "0");
    await Deno.writeTextFile(`${dir}/large_${n}.yaml`, LARGE(n));
  }
}

/** Runs a suite at every worker count, alternating; prints each run; the table's rows. */
async function measureSuite(suite: Suite): Promise<string[]> {
  const dir = `${out}/workers/${suite.name.replace(/ /g, "_")}`;
  await writeSuite(suite, dir, flows);
  console.log(`${suite.name}: ${flows} flows × ${suite.requests} requests`);
  const counts = [0, ...workersList];
  const samples = new Map(counts.map((w) => [w, [] as Sample[]]));
  for (let r = 0; r < repeats; r++) {
    for (const w of counts) {
      const s = await once(suite, dir, w, flows);
      samples.get(w)!.push(s);
      console.log(
        `  ${w === 0 ? "the loop" : `--workers ${w}`}: ${s.seconds.toFixed(2)} s, ${
          s.rps.toFixed(0)
        } req/s, ` +
          `${s.cpuMsPerRequest.toFixed(3)} ms CPU per request, CPU ${
            (s.cpuShare * 100).toFixed(0)
          } %, server CPU ${(s.serverShare * 100).toFixed(0)} %, ${s.rss.toFixed(0)} MiB`,
      );
    }
  }
  const m = (w: number, pick: (s: Sample) => number) => median(samples.get(w)!.map(pick));
  return counts.map((w) =>
    `${label(suite, w)} ${m(w, (s) => s.seconds).toFixed(2)} s | ${
      m(w, (s) => s.rps).toFixed(0)
    } | ${m(w, (s) => s.cpuMsPerRequest).toFixed(3)} ms | ${
      (m(w, (s) => s.cpuShare) * 100).toFixed(0)
    } % | ${(m(w, (s) => s.serverShare) * 100).toFixed(0)} % | ${
      m(w, (s) => s.rss).toFixed(0)
    } MiB |`
  );
}

await Deno.remove(`${out}/workers`, { recursive: true }).catch(() => {});
console.log(
  `--jobs ${jobs}, Deno ${Deno.version.deno}, ${cpus} CPUs; each server on CPU ${serverCpu}, ` +
    `flowrun on ${clientCpus ?? "all CPUs"}`,
);
const rows: string[] = [];
for (const suite of SUITES) rows.push(...await measureSuite(suite));
// The start of a worker: two flows on two threads (the main thread and one worker) against the
// same two on the main thread alone.
const demo = SUITES[0];
await writeSuite(demo, `${out}/workers/two`, 2);
const start: number[] = [];
for (let r = 0; r < 5; r++) {
  const one = await once(demo, `${out}/workers/two`, 1, 2);
  const two = await once(demo, `${out}/workers/two`, 2, 2);
  start.push((two.cpuMsPerRequest - one.cpuMsPerRequest) * 2 * demo.requests);
}
const table = [
  `\`deno run -A bench/workers.ts ${flows} --workers ${workersList.join(",")} --jobs ${jobs}\` on ${
    new Date().toISOString().slice(0, 10)
  }: ${flows.toLocaleString("en")} flows per suite, a JSON report; Deno ${Deno.version.deno}, ` +
  `${cpus} CPUs, each server pinned to CPU ${serverCpu}${
    clientCpus ? `, flowrun to CPUs ${clientCpus}` : ", flowrun on both"
  }; medians of ${repeats} alternating runs. _demo_: the bench's flow (six small requests) against ` +
  `the demo API; _large bodies_: three GETs of an 86 KB JSON body with checks, which cost the client ` +
  `far more than the server (bench/static_json.ts). _The loop_: bench/raw_fetch.mjs sending the same ` +
  `requests ${jobs} flows at a time on one thread, as a runner must (a timeout over the body, every ` +
  `header read, the body as text and parsed).`,
  "",
  "| suite | `--workers` (threads) | wall time | requests/s | client CPU per request | client CPU | server CPU | peak memory |",
  "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ...rows,
  "",
  `Starting a worker costs about ${
    median(start).toFixed(0)
  } ms of CPU (two flows on \`--workers 2\`, the main thread and one worker, against \`--workers 1\`; median of 5).`,
].join("\n");
console.log(`\n${table}`);
if (writeReadme) await readmeBlock("workers", table);
