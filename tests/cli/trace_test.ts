/** --trace and --trace-link through the CLI: trace ids reach the console, both reports and the log. */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { startDemoApi } from "../../examples/demo_api.ts";
import { runCli } from "../support/cli.ts";

Deno.test("--trace puts trace and span ids in every report, and --trace-link makes links of them", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-trace-" });
  try {
    const run = await runCli(
      [
        "run",
        "tests/cases/failed/type_mismatch.yaml",
        "--trace",
        "--trace-link",
        "http://jaeger.test:16686/trace/{trace_id}?uiFind={span_id}",
        "--out-dir",
        dir,
      ],
      { env: { BASE_URL: api.url } },
    );
    assert.equal(run.code, 1);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const flow = report.flows[0];
    const { trace_id, span_id } = flow.steps[0].trace;
    assert.equal(trace_id, flow.trace_id);
    assert.match(span_id, /^[0-9a-f]{16}$/);
    assert.ok(
      run.stdout.includes(`trace: http://jaeger.test:16686/trace/${trace_id}?uiFind=${span_id}`),
      run.stdout,
    );
    assert.match(run.stdout, /reproduce: .* --trace\n/);

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" })
      .parse(await Deno.readTextFile(`${dir}/junit.xml`));
    const properties = Object.fromEntries(
      [xml.testsuites.testsuite.properties.property].flat().map((
        p: { name: string; value: string },
      ) => [p.name, p.value]),
    );
    assert.equal(properties.trace_id, trace_id);
    assert.equal(properties["status_body.span_id"], span_id);

    const requests = (await Deno.readTextFile(`${dir}/run.log.ndjson`)).trim().split("\n").map((
      l,
    ) => JSON.parse(l))
      .filter((e) => e.event === "request");
    assert.deepEqual(requests.map((e) => [e.trace_id, e.span_id]), [[trace_id, span_id]]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the trace recipe of docs/guide.md passes against the demo API with and without --trace", async () => {
  const api = await startDemoApi();
  try {
    for (const extra of [[], ["--trace"]]) {
      const run = await runCli(["run", "examples/flows/trace/readme_recipe.yaml", ...extra], {
        env: { BASE_URL: api.url },
      });
      assert.equal(run.code, 0, `${extra.join(" ")}\n${run.stdout}${run.stderr}`);
    }
  } finally {
    await api.close();
  }
});
