/**
 * The converter never writes a flow that does not load (issue 52, class 6):
 * it checks its own output as `flowrun validate` would and, instead of a
 * broken file, says what it could not express.
 */
import assert from "node:assert/strict";
import { assertLoads } from "../../lib/convert/write_check.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { runCli } from "../support/cli.ts";

const entry = (headers: { name: string; value: string }[]) => ({
  startedDateTime: "2026-01-01T00:00:00Z",
  request: { method: "GET", url: "https://a.test/api/me", headers },
  response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
});

Deno.test("convert har: a header no flow can send is left out, and the flow written loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-write-check-" });
  try {
    // A header name holding "${" is no HTTP token: no client sends it, so the converter leaves
    // it out as it does pseudo-headers (har_header_names_test.ts) instead of writing a flow whose
    // check would refuse it; the refusal itself is assertLoads's, below.
    await Deno.writeTextFile(
      `${dir}/a.har`,
      JSON.stringify({
        log: {
          entries: [
            entry([{ name: "X-Trace-${id}", value: "1" }, { name: "X-Trace", value: "2" }]),
          ],
        },
      }),
    );
    const run = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(run.code, 0, run.stderr);
    const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.doesNotMatch(yaml, /x-trace-/i, yaml);
    assert.match(yaml, /x-trace: "2"/, yaml);
    const validated = await runCli(["validate", `${dir}/flow.yaml`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assertLoads: a flow that loads passes; one that does not is a usage error naming each problem's line", async () => {
  await assertLoads("name: f\nsteps:\n  - name: s\n    request: {url: https://a.test/}\n");
  const broken =
    "name: f\nsteps:\n  - name: s\n    request: {url: https://a.test/}\n    capture:\n      ***: { cookie: *** }\n";
  const error = await assertLoads(broken).then(() => undefined, (e) => e);
  assert.ok(error instanceof UsageError, String(error));
  assert.equal(error.code, "unloadable-flow");
  assert.match(error.message, /line 6/, error.message);
});
