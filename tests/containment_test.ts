/**
 * One flow's content never takes the run down: an internal error while a
 * step's checks, captures or conditions are evaluated (here a real one: two
 * responses nested 20,000 deep compared with `equals`, which overflows the
 * stack of the comparison) fails that step with a message, the other flows
 * run, every requested report is written, and the exit code is 1, not 3.
 */
import assert from "node:assert/strict";
import { runCli } from "./support/cli.ts";

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
  "c_fine.yaml": `name: fine
steps:
  - name: ok
    request: { url: "${url}/ok" }
    assert: { status: 200, json: [{ path: "$.json.ok", equals: true }] }
`,
});

Deno.test("an internal error in one step's checks fails that step; the run goes on and writes every report", async () => {
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

    // The check that could not be evaluated fails with a message; the others are still reported.
    const compare = step("deep check", "compare");
    assert.equal(compare.status, "failed");
    const failed = compare.assertions.filter((a: { passed: boolean }) => !a.passed);
    assert.equal(failed.length, 1, JSON.stringify(compare.assertions).slice(0, 2000));
    assert.match(failed[0].message, /internal error while checking: .*Maximum call stack/);
    assert.equal(compare.assertions.filter((a: { passed: boolean }) => a.passed).length, 2);
    assert.equal(step("deep check", "cleanup").status, "passed");

    const maybe = step("deep condition", "maybe");
    assert.equal(maybe.status, "error");
    assert.match(maybe.message, /internal error while checking/);

    assert.equal(flow("fine").status, "passed");
    for (const name of ["junit.xml", "report.html", "run.log"]) {
      const text = await Deno.readTextFile(out(name));
      assert.match(text, /internal error while checking/, name);
      assert.doesNotMatch(text, /\n\s+at .*\.ts:\d+/, `${name} holds a stack trace`);
    }
    assert.equal(JSON.parse(await Deno.readTextFile(out("manifest.json"))).exit_code, 1);
    assert.match(await Deno.readTextFile(out("junit.xml")), /<testsuite [^>]*name="fine"/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
