/**
 * `deno run -A bench/workers.ts [flows] [--workers 1,2,4] [--jobs 8] [--readme]`:
 * how throughput grows with `--workers`. Writes N copies of the bench's flow
 * (bench/job_flow.yaml: login, create, poll three times, delete; six requests)
 * and runs them at each worker count against the demo API in its own
 * process, pinned to the last CPU with `taskset` so that its work is not
 * flowrun's; flowrun is pinned to the other CPUs when there are at least
 * three, else left on all of them (on two CPUs, flowrun's CPU share above
 * 100 % is the proof that it used both). Prints, per run: wall time,
 * requests/s, flowrun's CPU time (user and system, every thread, GNU time)
 * per request and as a share of the wall time, the server's CPU share, and
 * peak memory; the median of `--repeats` runs (default 3), alternating.
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
const REQUESTS_PER_FLOW = 6;
const cpus = navigator.hardwareConcurrency;
const serverCpu = cpus - 1;
const clientCpus = cpus >= 3 ? `0-${cpus - 2}` : undefined;

if (!(await hasGnuTime())) throw new Error("GNU time (/usr/bin/time) is needed for CPU times");

/** The demo API pinned to one CPU, and its CPU time so far (from /proc). */
async function startPinnedDemo() {
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
      `${root}examples/demo_api.ts`,
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

/** One run of the suite at `workers`, against a fresh server. */
async function once(dir: string, workers: number, count: number) {
  const api = await startPinnedDemo();
  try {
    const before = await api.cpuSeconds();
    const runArgs = [
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
    const requests = count * REQUESTS_PER_FLOW;
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

await Deno.remove(`${out}/workers`, { recursive: true }).catch(() => {});
await Deno.mkdir(`${out}/workers/flows`, { recursive: true });
await Deno.mkdir(`${out}/workers/two`, { recursive: true });
await writeJobFlows(`${out}/workers/flows`, flows);
await writeJobFlows(`${out}/workers/two`, 2);

console.log(
  `${flows} flows × ${REQUESTS_PER_FLOW} requests, --jobs ${jobs}, Deno ${Deno.version.deno}, ` +
    `${cpus} CPUs; the demo API on CPU ${serverCpu}, flowrun on ${clientCpus ?? "all CPUs"}`,
);
const samples = new Map(workersList.map((w) => [w, [] as Awaited<ReturnType<typeof once>>[]]));
for (let r = 0; r < repeats; r++) {
  for (const w of workersList) {
    const s = await once(`${out}/workers/flows`, w, flows);
    samples.get(w)!.push(s);
    console.log(
      `--workers ${w}: ${s.seconds.toFixed(2)} s, ${s.rps.toFixed(0)} req/s, ` +
        `${s.cpuMsPerRequest.toFixed(3)} ms CPU per request, CPU ${
          (s.cpuShare * 100).toFixed(0)
        } %, ` +
        `server CPU ${(s.serverShare * 100).toFixed(0)} %, ${s.rss.toFixed(0)} MiB`,
    );
  }
}
// The start of a worker: two flows on two threads (the main thread and one worker) against the
// same two on the main thread alone.
const start: number[] = [];
for (let r = 0; r < 5; r++) {
  const one = await once(`${out}/workers/two`, 1, 2);
  const two = await once(`${out}/workers/two`, 2, 2);
  start.push((two.cpuMsPerRequest - one.cpuMsPerRequest) * 2 * REQUESTS_PER_FLOW);
}
const m = (w: number, pick: (s: Awaited<ReturnType<typeof once>>) => number) =>
  median(samples.get(w)!.map(pick));
const rows = workersList.map((w) =>
  `| ${w} | ${m(w, (s) => s.seconds).toFixed(2)} s | ${m(w, (s) => s.rps).toFixed(0)} | ${
    m(w, (s) => s.cpuMsPerRequest).toFixed(3)
  } ms | ${(m(w, (s) => s.cpuShare) * 100).toFixed(0)} % | ${
    (m(w, (s) => s.serverShare) * 100).toFixed(0)
  } % | ${m(w, (s) => s.rss).toFixed(0)} MiB |`
);
const table = [
  `\`deno run -A bench/workers.ts ${flows} --workers ${workersList.join(",")} --jobs ${jobs}\` on ${
    new Date().toISOString().slice(0, 10)
  }: ${flows.toLocaleString("en")} flows, ${
    (flows * REQUESTS_PER_FLOW).toLocaleString("en")
  } requests, a JSON report; Deno ${Deno.version.deno}, ${cpus} CPUs, the demo API pinned to CPU ${serverCpu}` +
  `${
    clientCpus ? `, flowrun to CPUs ${clientCpus}` : ", flowrun on both"
  }; medians of ${repeats} alternating runs.`,
  "",
  "| `--workers` (threads) | wall time | requests/s | flowrun CPU per request | flowrun CPU | server CPU | peak memory |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...rows,
  "",
  `Starting a worker costs about ${
    median(start).toFixed(0)
  } ms of CPU (two flows on \`--workers 2\`, the main thread and one worker, against \`--workers 1\`; median of 5).`,
].join("\n");
console.log(`\n${table}`);
if (writeReadme) await readmeBlock("workers", table);
