/**
 * Golden end-to-end cases: each `tests/cases/{ok,failed}/NAME.yaml` runs
 * through the CLI (as a subprocess) against a fresh demo API; its console
 * output must equal `NAME.out` and its exit code `NAME.exit`. Ports and
 * timings are normalised. `UPDATE_GOLDEN=1 deno task test` rewrites the
 * expected files after a deliberate change; review the diff.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../examples/demo_api.ts";
import { normalise, root, runCli } from "./support/cli.ts";

/** A loopback URL where nothing listens: a port that was free a moment ago. */
export function closedPortUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

const update = Deno.env.get("UPDATE_GOLDEN") === "1";

for (const kind of ["ok", "failed"]) {
  const dir = `${root}tests/cases/${kind}`;
  const names = [...Deno.readDirSync(dir)]
    .filter((e) => e.name.endsWith(".yaml"))
    .map((e) => e.name.replace(/\.yaml$/, ""))
    .sort();
  for (const name of names) {
    Deno.test(`golden case ${kind}/${name}`, async () => {
      const api = await startDemoApi();
      try {
        const run = await runCli(
          ["run", `tests/cases/${kind}/${name}.yaml`, "--run-id", "golden", "--no-color"],
          { env: { BASE_URL: api.url, DOWN_URL: closedPortUrl() } },
        );
        const actual = normalise(run.stdout + run.stderr);
        const outFile = `${dir}/${name}.out`;
        const exitFile = `${dir}/${name}.exit`;
        if (update) {
          await Deno.writeTextFile(outFile, actual);
          await Deno.writeTextFile(exitFile, `${run.code}\n`);
        }
        assert.equal(actual, await Deno.readTextFile(outFile));
        assert.equal(run.code, Number((await Deno.readTextFile(exitFile)).trim()));
        assert.equal(run.code, kind === "ok" ? 0 : run.code, "cases under ok/ must pass");
        if (kind === "failed") assert.notEqual(run.code, 0, "cases under failed/ must fail");
      } finally {
        await api.close();
      }
    });
  }
}
