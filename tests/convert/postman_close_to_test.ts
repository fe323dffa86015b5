/**
 * Two chai idioms of a course's coupon suite: `pm.expect(json.discount_amount).to.be.closeTo(30000.1,
 * 0.01)` and `pm.expect([401, 403]).to.include(pm.response.code)` (the list as the subject, the
 * response's value as the argument). Both stayed comments, their checks never run. `closeTo(v, d)`
 * is now `v - d ≤ value ≤ v + d`, and a literal list that must include a response value is that value
 * being one of the list; a server the test starts answers so that one check of each passes and one
 * fails, as in Newman.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman closeTo and a list including the status: translated, with Newman's verdicts", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ discount_amount: 30000.1 }, { status: 403 }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const script = [
      "pm.test('close', () => pm.expect(pm.response.json().discount_amount).to.be.closeTo(30000.1, 0.01));",
      "pm.test('far', () => pm.expect(pm.response.json().discount_amount).to.be.closeTo(30000, 0.01));",
      "pm.test('denied', function () { pm.expect([401, 403]).to.include(pm.response.code); });",
      "pm.test('ok', function () { pm.expect([200, 201]).to.include(pm.response.code); });",
    ];
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Coupons", schema: V21 },
      item: [{
        name: "Apply",
        event: [{ listen: "test", script: { exec: script } }],
        request: { method: "POST", url: `http://127.0.0.1:${server.addr.port}/apply` },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated[,:]/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const report = `${dir}/report.json`;
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", report]);
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    const [step] = JSON.parse(await Deno.readTextFile(report)).flows[0].steps;
    const verdict = (name: string) =>
      step.assertions.filter((a: { name?: string }) => a.name === name)
        .every((a: { passed: boolean }) => a.passed);
    assert.deepEqual(
      ["close", "far", "denied", "ok"].map(verdict),
      [true, false, true, false],
      flow.text,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
