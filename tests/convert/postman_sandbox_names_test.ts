/**
 * Postman's sandbox runs a script as the body of a function whose parameters are the names it
 * gives every script: the legacy ones (`data`, `tests`, `responseBody`, `_`, `tv4`…), `pm`,
 * `console`, the timers and JavaScript's own globals (`JSON`, `Date`, `Math`…). A top-level
 * `const data = pm.response.json()` declares one of them again, which is a SyntaxError
 * ("Identifier 'data' has already been declared"): Newman runs nothing of that script, none of
 * its tests, sets or requests, and reports the error. A tester's store collection did exactly
 * that, and the flow checked (and failed) three tests Newman never ran. Such a script is now not
 * translated, and the summary says why, quoting the declaration; `var`, a declaration inside a
 * function or block, and a script marked `"use sandbox2";` (no legacy names) are translated as
 * before. Proven against Newman on a server the test starts.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import { runNewman } from "../support/newman_counts.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const nothing = () => ({ k: "lit" as const, value: undefined });
const CHECK = "pm.test('is 500', () => pm.response.to.have.status(500));";

Deno.test("postman sandbox names: a top-level const or let of a name the sandbox gives is no translation", () => {
  for (
    const decl of [
      "const data = pm.response.json();",
      "let responseBody = pm.response.text();",
      "const _ = require('lodash');",
      "const { tests } = pm.response.json();",
      "const [JSON] = [1];",
      "class Date {}",
    ]
  ) {
    const t = translateScript(
      `${CHECK}\npm.environment.set('id', pm.response.json().id);\n${decl}`,
      nothing,
    );
    assert.equal(t.translated, 0, decl);
    assert.equal(t.untranslatedAssertions, 1, decl);
    assert.deepEqual(t.checks, [], decl);
    assert.deepEqual(t.captures, [], decl);
    assert.match(t.untranslated[0], /SyntaxError in Postman's sandbox/, decl);
  }
  const quoted = translateScript(`const data = pm.response.json();\n${CHECK}`, nothing);
  assert.match(quoted.untranslated[0], /"const data = pm\.response\.json\(\);" declares "data"/);
});

Deno.test("postman sandbox names: var, a nested declaration, another name or sandbox2 still translate", () => {
  for (
    const source of [
      `var data = pm.response.json();\n${CHECK}`,
      `pm.test('is 500', () => { const data = pm.response.json(); pm.response.to.have.status(500); });`,
      `{ const tests = 1; }\n${CHECK}`,
      `const body = pm.response.json();\n${CHECK}`,
      `"use sandbox2";\nconst data = pm.response.json();\n${CHECK}`,
    ]
  ) {
    const t = translateScript(source, nothing);
    assert.equal(t.translated, 1, source);
    assert.equal(t.untranslatedAssertions, 0, source);
  }
});

Deno.test("postman sandbox names: Newman runs none of such a script's tests, nor does the flow", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json([{ id: 1 }]),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const item = (name: string, exec: string[]) => ({
    name,
    event: [{ listen: "test", script: { exec } }],
    request: { method: "GET", url: "{{baseUrl}}/items", header: [] },
  });
  const collection = {
    info: { name: "Sandbox names", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      item("Redeclares", [
        "const data = pm.response.json();",
        CHECK,
        "pm.test('one', () => pm.expect(data.length).to.eql(1));",
      ]),
      item("Plain", [
        "const list = pm.response.json();",
        "pm.test('one', () => pm.expect(list.length).to.eql(1));",
      ]),
    ],
  };
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection));
    const newman = await runNewman(file);
    assert.deepEqual([newman.requests, newman.assertions, newman.failedAssertions], [2, 1, 0]);
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    assert.match(
      summary,
      /Redeclares: 0 translated, 2 untranslated \(its script stops at a SyntaxError/,
    );
    assert.match(summary, /"const data = pm\.response\.json\(\);" declares "data"/);
    const run = await runCli([
      ...summary.match(/^Run: flowrun (.*)$/m)![1].split(" "),
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual([report.totals.steps.total, report.totals.assertions.total], [2, 1]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
