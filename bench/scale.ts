/**
 * `deno task bench:scale [flows] [jobs...] [--failing] [--readme]`: a suite at CI scale.
 * Writes N flows of 5 steps (login, create an item, read it, list, delete;
 * with `--failing` every flow fails its create check, and the rest of its
 * steps are skipped, so every flow's failure is reported) and runs
 * them against the demo API (in its own process) with all four artifacts, at
 * each --jobs value; prints wall time, requests per second and peak memory.
 * Memory should stay flat as N grows: the log is streamed, each flow's part
 * of the reports is spooled to a temporary file as it ends, and the run keeps
 * a compact record per flow. With `--readme` the table replaces the README's
 * block for this many flows (see `readmeBlock`). Run by hand, never in CI.
 */
import {
  bundleFirst,
  flowrunArgs,
  hasGnuTime,
  measure,
  out,
  peak,
  readmeBlock,
  startDemoProcess,
} from "./support.ts";

const failing = Deno.args.includes("--failing");
const writeReadme = Deno.args.includes("--readme");
const args = Deno.args.filter((a) => a !== "--failing" && a !== "--readme");
const flows = Number(args[0] ?? 2000);
const jobsList = args.length > 1 ? args.slice(1).map(Number) : [1, 2, 8];
const STEPS = 5;

const flow = (n: string) =>
  `name: Scale ${n}
steps:
  - name: login
    request:
      method: POST
      url: \${ENV.BASE_URL}/login
      body: {username: demo, password: demo-password}
    capture: {token: $.json.token}
    assert: {status: 200}
  - name: create
    request:
      method: POST
      url: \${ENV.BASE_URL}/items
      headers: {authorization: "Bearer \${steps.login.capture.token}"}
      body: {name: "item-\${RUN_ID}-${n}", price: 3}
    capture: {id: $.json.id}
    assert: {status: 201, json: [{path: $.json.price, equals: ${failing ? 4 : 3}}]}
  - name: read
    request:
      url: \${ENV.BASE_URL}/items/\${steps.create.capture.id}
      headers: {authorization: "Bearer \${steps.login.capture.token}"}
    assert: {status: 200, json: [{path: $.json.name, matches: "^item-"}]}
  - name: list
    request:
      url: \${ENV.BASE_URL}/items
      headers: {authorization: "Bearer \${steps.login.capture.token}"}
    assert: {status: 200}
  - name: delete
    request:
      method: DELETE
      url: \${ENV.BASE_URL}/items/\${steps.create.capture.id}
      headers: {authorization: "Bearer \${steps.login.capture.token}"}
    assert: {status: 204}
`;

await Deno.remove(`${out}/scale`, { recursive: true }).catch(() => {});
await Deno.mkdir(`${out}/scale/flows`, { recursive: true });
for (let i = 0; i < flows; i++) {
  const n = String(i).padStart(5, "0");
  await Deno.writeTextFile(`${out}/scale/flows/scale_${n}.yaml`, flow(n));
}

const gnuTime = await hasGnuTime();
// A failing flow sends two requests (login, create); its other steps are skipped.
const requests = flows * (failing ? 2 : STEPS);
console.log(
  `${flows} flows × ${STEPS} steps${
    failing ? ", every flow failing" : ""
  } = ${requests} requests, Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`,
);
const rows: string[] = [];
for (const jobs of jobsList) {
  // A fresh server per run: the list endpoint would otherwise grow with every run.
  await bundleFirst();
  const api = await startDemoProcess();
  try {
    const sample = await measure(
      [
        ...flowrunArgs,
        "run",
        `${out}/scale/flows`,
        "--jobs",
        String(jobs),
        "--out-dir",
        `${out}/scale/artifacts-${jobs}`,
      ],
      { BASE_URL: api.url, NO_COLOR: "1" },
      gnuTime,
    );
    const rps = requests / sample.seconds;
    console.log(
      `--jobs ${String(jobs).padEnd(2)}: ${sample.seconds.toFixed(2)} s  ${
        rps.toFixed(0)
      } req/s  peak memory ${peak([sample])}`,
    );
    rows.push(
      `| ${jobs} | ${sample.seconds.toFixed(2)} s | ${rps.toFixed(0)} | ${peak([sample])} |`,
    );
  } finally {
    await api.stop();
  }
}
const table = [
  `\`deno task bench:scale ${[...args, ...(failing ? ["--failing"] : [])].join(" ")}\` on ${
    new Date().toISOString().slice(0, 10)
  }: ` +
  `${flows.toLocaleString("en")} flows of ${STEPS} steps${failing ? ", every one failing" : ""}, ` +
  `${requests.toLocaleString("en")} requests, all five artifacts (\`--out-dir\`).`,
  "",
  "| `--jobs` | wall time | requests/s | peak memory (max RSS) |",
  "| --- | --- | --- | --- |",
  ...rows,
].join("\n");
console.log(`\n${table}`);
if (writeReadme) await readmeBlock(`scale ${flows}${failing ? " failing" : ""}`, table);
