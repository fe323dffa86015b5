/**
 * `pm.expect(pm.response.text("Todo not found"))`, a chain its writer never finished: chai
 * asserts nothing, so Newman passes the test whatever the answer. A todo API's own collection has
 * one ("Response body is empty"); it stayed a comment and its test counted untranslated. Now an
 * `expect` with no word after it, of a value that cannot throw while worked out (a literal, a
 * variable, the body as text, the status), is a test with no check: translated, nothing to fail,
 * as in Newman. One whose value may throw (`json.a.b` throws when `a` is missing, failing the
 * test in Newman) stays a comment.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman bare expect: an expect with no assertion word checks nothing, as in Newman", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("Todo not found", { status: 404 }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/todos/1`;
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Bare", schema: V21 },
      item: [{
        name: "Gone",
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('Status code is 404', () => pm.response.to.have.status(404));",
              "pm.test('Response body is empty', function () {",
              "  pm.expect(pm.response.text('Todo not found'));",
              "});",
              "pm.test('a member', function () {",
              "  pm.expect(pm.response.json().a.b);",
              "});",
            ],
          },
        }],
        request: { method: "GET", url, header: [] },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /pm\.response\.text/, flow.text);
    assert.match(flow.text, /#\s+pm\.expect\(pm\.response\.json\(\)\.a\.b\);/, flow.text);
    const [report] = summary.reports;
    assert.deepEqual([report.translated, report.untranslated], [2, 1], JSON.stringify(report));
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, flow.text + run.stdout + run.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
