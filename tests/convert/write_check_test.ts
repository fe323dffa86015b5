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

Deno.test("convert har: a recording no flow can express is refused with what could not be written, and no file is written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-write-check-" });
  try {
    // A header name holding "${": no flow can send it (braces are no header name's), written as
    // the text it is ("$${"), so the flow's check refuses it rather than expanding an expression.
    await Deno.writeTextFile(
      `${dir}/a.har`,
      JSON.stringify({ log: { entries: [entry([{ name: "X-Trace-${id}", value: "1" }])] } }),
    );
    const run = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /does not load/, run.stderr);
    assert.match(
      run.stderr,
      /line \d+: "x-trace-\$\$\{id\}" is not a valid header name\.\n/,
      run.stderr,
    );
    await assert.rejects(Deno.stat(`${dir}/flow.yaml`), Deno.errors.NotFound);
    // The same recording without that header converts and validates.
    await Deno.writeTextFile(
      `${dir}/b.har`,
      JSON.stringify({ log: { entries: [entry([{ name: "X-Trace", value: "1" }])] } }),
    );
    const ok = await runCli(["convert", "har", `${dir}/b.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(ok.code, 0, ok.stderr);
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
