/**
 * One flow's content never takes the run down. Responses nested 20,000 deep
 * (which once overflowed the stack of `equals` and then of masking) compared,
 * captured and used in conditions fail only their steps, with a message; the
 * other flows run, every requested report is written, and the exit code is 1,
 * not 3. And an internal error while a step's checks are evaluated (a bug that
 * no input reaches today) fails that check, not the run.
 */
import assert from "node:assert/strict";
import { evaluateChecks } from "../../lib/check/assert.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { runCli } from "../support/cli.ts";

const DEPTH = 20_000;
const DEEP = '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH);

function api() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/deep") {
      return new Response(DEEP, { headers: { "content-type": "application/json" } });
    }
    return Response.json({ ok: true, items: [1, 2] });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Flows whose steps meet an internal error in a check, a condition, and a capture's use. */
const flows = (url: string): Record<string, string> => ({
  "a_check.yaml": `name: deep check
steps:
  - name: first
    request: { url: "${url}/deep" }
    capture: { doc: $.json }
  - name: compare
    request: { url: "${url}/deep" }
    assert:
      status: 200
      json:
        - { path: "$.json", equals: "\${steps.first.capture.doc}" }
        - { path: "$.status", equals: 200 }
  - name: cleanup
    always: true
    request: { url: "${url}/ok" }
`,
  "b_condition.yaml": `name: deep condition
steps:
  - name: first
    request: { url: "${url}/deep" }
    capture: { doc: $.json }
  - name: second
    request: { url: "${url}/deep" }
    capture: { doc: $.json }
  - name: maybe
    if:
      value: "\${steps.first.capture.doc}"
      equals: "\${steps.second.capture.doc}"
    request: { url: "${url}/ok" }
`,
  "d_equals.yaml": `name: deep equals
steps:
  - name: same
    request: { url: "${url}/deep" }
    assert:
      json:
        - { path: "$.json", notEquals: { a: { a: { a: {} } } } }
        - { path: "$.json", type: object }
`,
  "c_fine.yaml": `name: fine
steps:
  - name: ok
    request: { url: "${url}/ok" }
    assert: { status: 200, json: [{ path: "$.json.ok", equals: true }] }
`,
});

Deno.test("responses nested 20,000 deep fail only their steps; the run goes on and writes every report", async () => {
  const server = api();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-contain-" });
  try {
    for (const [name, text] of Object.entries(flows(server.url))) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const out = (name: string) => `${dir}/out/${name}`;
    const result = await runCli([
      "run",
      `${dir}/a_check.yaml`,
      `${dir}/b_condition.yaml`,
      `${dir}/c_fine.yaml`,
      `${dir}/d_equals.yaml`,
      "--report-json",
      out("report.json"),
      "--report-junit",
      out("junit.xml"),
      "--report-html",
      out("report.html"),
      "--log-file",
      out("run.log"),
      "--manifest",
      out("manifest.json"),
    ]);
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 1, output.slice(0, 4000));
    assert.doesNotMatch(
      output,
      /internal error \(exit 3\)|^\s+at .*\.ts:\d+:\d+/m,
      output.slice(0, 4000),
    );
    const report = JSON.parse(await Deno.readTextFile(out("report.json")));
    const flow = (name: string) => report.flows.find((f: { name: string }) => f.name === name);
    const step = (f: string, s: string) =>
      flow(f).steps.find((x: { name: string }) => x.name === s);

    // The whole 20,000-deep body compares equal to itself, and no capture holds it.
    const first = step("deep check", "first");
    assert.equal(first.status, "failed");
    assert.equal(first.failure_kind, "capture");
    assert.match(first.message, /nested more than 256 levels deep; capture a part of it/);
    assert.equal(step("deep check", "cleanup").status, "passed");
    assert.equal(step("deep condition", "first").failure_kind, "capture");
    assert.equal(flow("deep equals").status, "passed", JSON.stringify(flow("deep equals")));

    assert.equal(flow("fine").status, "passed");
    for (const name of ["junit.xml", "report.html", "run.log"]) {
      const text = await Deno.readTextFile(out(name));
      assert.match(text, /nested more than 256 levels deep/, name);
      assert.doesNotMatch(text, /\n\s+at .*\.ts:\d+/, `${name} holds a stack trace`);
    }
    assert.equal(JSON.parse(await Deno.readTextFile(out("manifest.json"))).exit_code, 1);
    assert.match(await Deno.readTextFile(out("junit.xml")), /<testsuite [^>]*name="fine"/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an exception while one check is evaluated fails that check; the step's others report", () => {
  const { flow } = loadFlow(
    `name: f
steps:
  - name: s
    request: { url: "http://x.test" }
    assert:
      status: 200
      json:
        - { path: $.json.a, equals: 1 }
        - { path: $.status, equals: 200 }
`,
    "f.yaml",
  );
  // A response whose body cannot be read stands for any bug met while checking.
  class Broken extends ReceivedResponse {
    override get json(): never {
      throw new TypeError("cannot read the body");
    }
  }
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const results = evaluateChecks(flow!.steps[0].assert, new Broken(200, {}, "{}"), scope, "assert");
  assert.deepEqual(results.map((r) => r.passed), [true, false, true]);
  assert.equal(
    results[1].message,
    "$.json.a: internal error while checking: TypeError: cannot read the body",
  );
});
