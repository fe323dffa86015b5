/**
 * Red-team of `--workers`: SIGTERM at each moment of a run on three
 * threads (a setup flow, before any worker starts; flows in flight on every
 * thread; a teardown flow, the workers ended) ends it as on one thread:
 * the same exit code, every flow in the reports, every artifact complete.
 */
import assert from "node:assert/strict";
import { XMLValidator } from "fast-xml-parser";
import { spawnCli } from "../support/cli.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

/** A suite whose setup, flows and teardown each block on `/block?at=…` until the signal. */
function files(base: string): Record<string, string> {
  const flow = (name: string, at: string) =>
    `name: ${name}
steps:
  - name: block
    request: {url: "${base}/block?at=${at}"}
  - name: cleanup
    always: true
    request: {url: "${base}/cleanup?at=${at}"}
`;
  const out: Record<string, string> = {
    "setup.yaml": flow("setup", "setup"),
    "teardown.yaml": flow("teardown", "teardown"),
  };
  for (let i = 0; i < 12; i++) {
    out[`flows/f${String(i).padStart(2, "0")}.yaml`] = flow(`f${i}`, "flow");
  }
  return out;
}

async function interrupted(moment: string, workers: string) {
  const release = Promise.withResolvers<void>();
  const api = notingServer(async ({ path, query }) => {
    if (path === "/block" && query.get("at") === moment) {
      await Promise.race([release.promise, sleep(10_000)]);
    }
    return Response.json({ ok: true });
  });
  const dir = await suite(files(api.base));
  try {
    const child = spawnCli([
      "run",
      "flows",
      "--workers",
      workers,
      "--jobs",
      "3",
      "--setup",
      "setup.yaml",
      "--teardown",
      "teardown.yaml",
      "--out-dir",
      "out",
    ], { cwd: dir, stdout: "null" });
    const want = moment === "flow" ? 3 : 1;
    for (
      let i = 0;
      i < 1000 && api.seen.filter((s) => s.query.get("at") === moment).length < want;
      i++
    ) {
      await sleep(10);
    }
    child.kill("SIGTERM");
    const { code, stderr } = await child.output();
    release.resolve();
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.ok(XMLValidator.validate(await Deno.readTextFile(`${dir}/out/junit.xml`)) === true);
    assert.ok((await Deno.readTextFile(`${dir}/out/report.html`)).trimEnd().endsWith("</html>"));
    const log = (await Deno.readTextFile(`${dir}/out/run.log.ndjson`)).trimEnd().split("\n");
    assert.equal(JSON.parse(log.at(-1)!).event, "run_end");
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
    return {
      code,
      stderr: new TextDecoder().decode(stderr),
      manifest: manifest.exit_code,
      interrupted: report.interrupted,
      flows: report.flows.map((f: { file: string; status: string }) => `${f.file} ${f.status}`),
      cleaned: api.seen.filter((s) => s.path === "/cleanup").length,
    };
  } finally {
    release.resolve();
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const moment of ["setup", "flow", "teardown"]) {
  Deno.test(`SIGTERM during ${moment} flows ends a run on three threads as on one`, async () => {
    const one = await interrupted(moment, "1");
    const three = await interrupted(moment, "3");
    assert.equal(three.code, one.code, three.stderr);
    assert.deepEqual(three, one);
  });
}
