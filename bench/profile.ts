/**
 * `deno task bench:profile [flows] [--readme]`: where a run's time goes.
 *
 * Writes N copies of bench/job_flow.yaml, starts the demo API in its own
 * process, and runs `flowrun run` on them (`--jobs 1`, JUnit and JSON
 * reports) in a child process with the runner's V8 flags, under V8's
 * sampling profiler (driven through `node:inspector` from inside the run).
 * Prints the main thread's busy time by area (Deno's own fetch and event
 * loop, secrets, loading, the runner, reports, garbage collection) and the
 * functions that take the most of it (8, or `PROFILE_TOP` of them); with
 * `--readme` the table replaces the README's "profile" block. Run by hand,
 * never in CI.
 */
import { flowrunArgs, out, readmeBlock, startDemoProcess, writeJobFlows } from "./support.ts";

/** A profile as V8's `Profiler.stop` returns it. */
interface Profile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** The areas busy time is split into, first match wins; the rest is the runner's own. */
const AREAS: [string, RegExp][] = [
  ["the profiler itself", /ext:deno_node\/inspector/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["secrets: discovery, registration and masking", /\/lib\/secrets\/|\/lib\/redact\.ts/],
  [
    "loading and checking flow files",
    /\/lib\/load\/|\/lib\/load\.ts|\/lib\/suite\.ts|\/lib\/includes\.ts|\/lib\/flow_cache\.ts|\/lib\/flow\.ts|\/lib\/spill\.ts|npm\/.*yaml|op_fs_/,
  ],
  ["reports, the console and the rest of the CLI", /\/lib\/report\/|\/cli\//],
  [
    "Deno's `fetch`, streams, headers and event loop",
    /^ext:|^op_|^\(program\)$|^\(root\)$|^node:/,
  ],
];

const child = Deno.args[0] === "--child";
if (child) await profileRun(Deno.args[1], Deno.args[2]);
else await main();

/** In the child: run flowrun on `dir` under the profiler and write the profile to `file`. */
async function profileRun(dir: string, file: string): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  const { main: cli } = await import("../cli.ts");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const code = await cli([
    "run",
    dir,
    "--jobs",
    "1",
    "--report-junit",
    `${out}/profile/junit.xml`,
    "--report-json",
    `${out}/profile/report.json`,
  ]);
  const { profile } = await session.post("Profiler.stop");
  await Deno.writeTextFile(file, JSON.stringify(profile));
  Deno.exit(code > 1 ? code : 0);
}

async function main(): Promise<void> {
  const writeReadme = Deno.args.includes("--readme");
  const flows = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 1000);
  const dir = `${out}/profile/flows`;
  await Deno.remove(`${out}/profile`, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await writeJobFlows(dir, flows);
  const api = await startDemoProcess();
  const file = `${out}/profile/run.cpuprofile`;
  try {
    // The child runs as `flowrun run` does (the runner's permissions and V8 flags), with this
    // script instead of cli.ts as its entry.
    const args = [
      ...flowrunArgs.slice(0, -1),
      "--allow-sys",
      import.meta.filename!,
      "--child",
      dir,
      file,
    ];
    const env = { BASE_URL: api.url, NO_COLOR: "1" };
    const ran = await new Deno.Command(Deno.execPath(), {
      args,
      env,
      stdout: "null",
      stderr: "piped",
    })
      .output();
    if (!ran.success) throw new Error(new TextDecoder().decode(ran.stderr));
  } finally {
    await api.stop();
  }
  const text = summarise(JSON.parse(await Deno.readTextFile(file)), flows);
  console.log(text);
  if (writeReadme) await readmeBlock("profile", text);
}

/** Busy time by area and the top functions, as Markdown. */
function summarise(profile: Profile, flows: number): string {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]));
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === "" ? functionName : url;
    if (functionName === "(idle)") {
      idle += us;
      continue;
    }
    const area = AREAS.find(([, pattern]) => pattern.test(where))?.[0] ??
      "the runner: templates, JSONPath, checks, captures, results, events";
    if (area === AREAS[0][0]) continue;
    busy += us;
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const place = url.replace(/^file:\/\/.*?\/(lib|cli|bench)\//, "$1/")
      .replace(/^.*\/node_modules\//, "npm:");
    const name = url ? `${functionName || "(anonymous)"} ${place}:${lineNumber + 1}` : functionName;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / busy).toFixed(0)} %`;
  const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
  const requests = flows * 6;
  return [
    `\`deno task bench:profile ${flows}\` on ${new Date().toISOString().slice(0, 10)}: ` +
    `${flows} flows, ${requests} requests, \`--jobs 1\`, JUnit and JSON reports, sampled every ` +
    `0.1 ms. The main thread was busy ${ms(busy)} (${
      ((busy / requests) / 1000).toFixed(3)
    } ms per request) and waited ${ms(idle)}.`,
    "",
    "| area | busy time | share |",
    "| --- | --- | --- |",
    ...[...byArea].sort((a, b) => b[1] - a[1]).map(([area, us]) =>
      `| ${area} | ${ms(us)} | ${share(us)} |`
    ),
    "",
    `The functions that took the most: ${
      [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(Deno.env.get("PROFILE_TOP") ?? 8))
        .map(([name, us]) => `\`${name}\` ${share(us)}`).join(", ")
    }.`,
  ].join("\n");
}
