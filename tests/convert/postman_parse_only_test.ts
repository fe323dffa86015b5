/**
 * A `pm.test` whose body only parses the answer (`const responseJson = pm.response.json();`,
 * then perhaps a `console.log` or a variable kept): Newman passes it when the body is JSON and
 * fails it when `json()` throws. It held no check flowrun writes, so the test was lost (a
 * university project's own collection names three so). It is now the check that the body is
 * JSON (`$.json` exists), under the test's name. A small server answers JSON, then text.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman parse only: a test that only parses the answer passes when it is JSON and fails when not, as in Newman", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const json = new URL(req.url).pathname === "/json";
    return json ? Response.json({ id: 1 }) : new Response("<html>oops</html>");
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const item = (name: string, path: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          'pm.test("Response body is read", function () {',
          "    const responseJson = pm.response.json();",
          "    console.log(responseJson);",
          "});",
        ],
      },
    }],
    request: { method: "GET", url: `${base}${path}`, header: [] },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Parse", schema: V21 },
      item: [item("json answer", "/json"), item("page answer", "/page")],
    }));
    assert.deepEqual(summary.reports.map((r) => r.translated), [1, 1]);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(flow.text, /path: \$\.json, exists: true, name: Response body is read/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps.map((s: { name: string; status: string }) =>
      `${s.name} ${s.status}`
    );
    assert.deepEqual(steps, ["json_answer passed", "page_answer failed"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman parse only: a test that checks something keeps its checks alone", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Parse", schema: V21 },
    item: [{
      name: "one",
      event: [{
        listen: "test",
        script: {
          exec: [
            'pm.test("id", () => { const j = pm.response.json(); pm.expect(j.id).to.eql(1); });',
          ],
        },
      }],
      request: { method: "GET", url: "http://127.0.0.1:9/json", header: [] },
    }],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.doesNotMatch(flow, /exists: true/, flow);
});
