/**
 * The library as another program uses it: nothing but an import of mod.ts.
 */
import assert from "node:assert/strict";
import {
  convertHar,
  FlowLoadError,
  loadFlows,
  mergeResults,
  runFlows,
  toJsonReport,
  toJUnitXml,
  VERSION,
} from "../mod.ts";

function serve(handler: (request: Request) => Response) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function flowDir(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-mod-" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

const FLOW = (name: string, status: number) =>
  `name: ${name}\nsteps:\n  - name: get\n    request: {url: "\${base}/${name}"}\n    assert: {status: ${status}}\n`;

Deno.test("runFlows takes paths and the CLI's options, and resolves to the report's run result", async () => {
  const api = serve(() => Response.json({ ok: true }));
  const dir = await flowDir({
    "a.yaml": FLOW("a", 200),
    "b.yaml": FLOW("b", 201),
    "c.yaml": FLOW("c", 200),
  });
  try {
    const result = await runFlows([dir], {
      vars: { base: api.url },
      jobs: 2,
      runId: "lib-1",
      timeoutMs: 5000,
      trace: true,
    });
    assert.equal(result.run_id, "lib-1");
    assert.equal(result.runner_version, VERSION);
    assert.equal(result.status, "failed", "a failing flow is a result, not an exception");
    assert.deepEqual(result.flows.map((f) => [f.name, f.status]), [
      ["a", "passed"],
      ["b", "failed"],
      ["c", "passed"],
    ]);
    assert.match(result.flows[0].trace_id!, /^[0-9a-f]{32}$/);
    const report = toJsonReport(result);
    assert.equal(report.schema_version, 1);
    assert.deepEqual(
      JSON.parse(JSON.stringify(report)).flows,
      JSON.parse(JSON.stringify(result.flows)),
    );
    assert.match(toJUnitXml(result), /<testsuite name="b" tests="1" failures="1"/);

    const shard1 = await runFlows([dir], {
      vars: { base: api.url },
      shard: { index: 1, total: 2 },
      runId: "lib-2",
    });
    const shard2 = await runFlows([dir], {
      vars: { base: api.url },
      shard: { index: 2, total: 2 },
      runId: "lib-2",
    });
    const merged = mergeResults([{ label: "1", result: shard1 }, { label: "2", result: shard2 }]);
    assert.deepEqual(merged.flows.map((f) => f.name), ["a", "b", "c"]);
    assert.deepEqual(merged.totals, result.totals);

    // A whole file name: a bare "c" would also match the random temp directory's name.
    const filtered = await runFlows([dir], { vars: { base: api.url }, filter: ["c.yaml"] });
    assert.deepEqual(filtered.flows.map((f) => f.name), ["c"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runFlows throws FlowLoadError with every problem when files do not load, and sends nothing", async () => {
  let requests = 0;
  const api = serve(() => {
    requests++;
    return new Response("ok");
  });
  const dir = await flowDir({ "a.yaml": FLOW("a", 200), "b.yaml": "name: b\nsteps: []\n" });
  try {
    const error = await runFlows([dir], { vars: { base: api.url } }).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof FlowLoadError);
    assert.deepEqual(
      error.problems.map((p) => [p.file.slice(p.file.lastIndexOf("/") + 1), p.code]),
      [["b.yaml", "wrong-type"]],
    );
    assert.equal(requests, 0);
    const { flows, problems } = await loadFlows([dir], { vars: { base: api.url } });
    assert.equal(flows.length, 1);
    assert.equal(problems.length, 1);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convertHar turns a HAR into flow YAML that loadFlows accepts", async () => {
  const har = await Deno.readTextFile(new URL("./fixtures/har/chrome_shop.har", import.meta.url));
  const { yaml, summary } = convertHar(har, { name: "Shop" });
  assert.ok(summary.kept > 0);
  const dir = await flowDir({ "shop.yaml": yaml });
  try {
    const env = (name: string) => (summary.env.includes(name) ? "set" : undefined);
    const { flows, problems } = await loadFlows([dir], { env });
    assert.deepEqual(problems, []);
    assert.equal(flows[0].name, "Shop");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
