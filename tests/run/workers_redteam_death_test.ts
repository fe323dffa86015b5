/**
 * Red-team of `--workers`: a worker thread that fails (an uncaught error
 * kills it) or a flow that throws inside one never hangs the run nor takes
 * the other flows' results with it: the flows it held end as errors that
 * say why, every other flow runs on the threads left, and the run's result
 * (what every report is written from) is complete.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { setWorkerEntry, workerEntry } from "../../lib/run/workers/entry.ts";
import { notingServer, suite } from "../support/workers.ts";

/**
 * A worker module that runs flows as the real one does, but dies (`die`:
 * an uncaught error) or throws while loading (`throw`) when handed a flow
 * whose file name says so.
 */
async function faultyEntry(dir: string): Promise<URL> {
  const path = `${dir}/faulty_worker.js`;
  await Deno.writeTextFile(
    path,
    `import ${JSON.stringify(workerEntry().href)};
const real = globalThis.onmessage;
globalThis.onmessage = (event) => {
  const file = event.data.kind === "flow" ? String(event.data.file) : "";
  if (file.endsWith("die.yaml")) setTimeout(() => { throw new Error("the worker died"); }, 0);
  else if (file.endsWith("throw.yaml")) real({ data: { ...event.data, json: "{not json" } });
  else real(event);
};
`,
  );
  return new URL(`file://${path}`);
}

Deno.test("a worker that dies or a flow that throws in one: every other flow still runs and reports", async () => {
  const api = notingServer();
  const files: Record<string, string> = {};
  for (let i = 0; i < 18; i++) {
    // Main runs flow 0 first; the first worker gets 1 and 2, the second 3 and 4.
    const name = i === 4 ? "die" : i === 1 ? "throw" : `f${String(i).padStart(2, "0")}`;
    files[`flows/${String(i).padStart(2, "0")}_${name}.yaml`] =
      `name: flow ${i}\nsteps:\n  - name: get\n    request: {url: "${api.base}/x?n=${i}"}\n`;
  }
  const dir = await suite(files);
  const real = workerEntry();
  setWorkerEntry(await faultyEntry(dir));
  try {
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    const ended: string[] = [];
    const notices: string[] = [];
    const result = await runFlows(loaded.flows, {
      jobs: 3,
      workers: { count: 3, checkSetup: true },
      notice: (line) => void notices.push(line),
      reporter: { onFlowEnd: (f) => void ended.push(f.name) },
    });
    assert.equal(result.flows.length, 18);
    assert.equal(ended.length, 18);
    const broken = result.flows.filter((f) => f.status !== "passed");
    assert.deepEqual(broken.map((f) => [f.file.replace(/.*\//, ""), f.status]), [
      ["01_throw.yaml", "error"],
      // The worker held flow 3 too when it died.
      ["03_f03.yaml", "error"],
      ["04_die.yaml", "error"],
    ]);
    const why = /worker thread running this flow failed.*(SyntaxError|the worker died)/;
    for (const flow of broken) assert.match(flow.steps[0].message!, why);
    assert.match(notices.join("\n"), /a worker thread failed.*the worker died/);
    // The threads left ran the other 15 flows (flow 3 may have sent its request).
    assert.ok(api.seen.length >= 15, `${api.seen.length} requests`);
  } finally {
    setWorkerEntry(real);
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
