/**
 * Checks guarded by a Postman variable's truthiness, as the RealWorld
 * project's own collection writes them (`if (!(environment.isIntegrationTest))
 * { tests[…] = … }` on 6 of its requests, run with an environment that sets
 * it): Newman runs the checks only when the variable's value is falsy at run
 * time. They were left untranslated (47 checks of that collection) once an
 * environment gave the variable a value; they are now a check group whose
 * `if` reads the variable's value when the flow runs, so the same flow runs
 * them or not as the value the user sets says.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const test = (exec: string[]) => ({ listen: "test", script: { exec } });

/** A collection whose one request's checks run only when `guard` (a script expression) is truthy. */
function collection(guard: string): string {
  return JSON.stringify({
    info: { name: "Guarded", schema: V21 },
    item: [{
      name: "Register",
      request: { method: "POST", url: "{{base}}/users" },
      event: [test([
        `if (${guard}) {`,
        "var responseJSON = JSON.parse(responseBody);",
        "tests['Response contains \"user\" property'] = responseJSON.hasOwnProperty('user');",
        "tests['Response code is 201'] = responseCode.code === 201;",
        "}",
      ])],
    }],
  });
}

const environment = (base: string) =>
  JSON.stringify({
    name: "Integration",
    values: [
      { key: "base", value: base, enabled: true },
      { key: "isIntegrationTest", value: "true", enabled: true },
    ],
  });

const FALSY = { value: "${vars.isIntegrationTest}", truthy: false };

for (
  const [guard, expected] of [
    ["!(environment.isIntegrationTest)", [FALSY]],
    ["!pm.environment.get('isIntegrationTest')", [FALSY]],
    ["!postman.getEnvironmentVariable('isIntegrationTest')", [FALSY]],
    ["pm.variables.get('isIntegrationTest')", [
      { value: "${vars.isIntegrationTest}", truthy: true },
    ]],
  ] as const
) {
  Deno.test(`postman var guard: if (${guard}) { tests… } is translated as a condition on the variable's value`, () => {
    const { files, summary } = convertPostman(collection(guard), environment("http://a.test"));
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [[2, 0]]);
    const flow = parse(files.find((f) => f.path.endsWith(".yaml"))!.text);
    const [group] = flow.steps[0].assert.json;
    assert.deepEqual([group.if].flat(), expected);
    assert.equal(group.checks.length, 2);
  });
}

Deno.test("postman var guard: a variable's truthiness is not a check of its own (flowrun checks the response)", () => {
  const text = JSON.stringify({
    info: { name: "Var check", schema: V21 },
    item: [{
      name: "Read",
      request: { method: "GET", url: "http://a.test/x" },
      event: [test(["tests['flag is set'] = !!environment.flag;"])],
    }],
  });
  const env = JSON.stringify({ name: "E", values: [{ key: "flag", value: "1", enabled: true }] });
  const { summary } = convertPostman(text, env);
  assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [[0, 1]]);
});

Deno.test("postman var guard: the converted flow runs the guarded checks only when the variable is falsy, as Newman does", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ errors: { username: ["is taken"] } }, { status: 422 }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-var-guard-" });
  try {
    await Deno.writeTextFile(`${dir}/c.json`, collection("!(environment.isIntegrationTest)"));
    await Deno.writeTextFile(
      `${dir}/e.json`,
      environment(`http://127.0.0.1:${server.addr.port}`),
    );
    const converted = await runCli([
      "convert",
      "postman",
      `${dir}/c.json`,
      "--environment",
      `${dir}/e.json`,
      "-o",
      `${dir}/flows`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const run = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1].trim().split(/\s+/);
    // The environment says it is an integration test: the checks are skipped, the step passes.
    const skipped = await runCli(run);
    assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
    assert.match(skipped.stdout + skipped.stderr, /1 step: 1 passed/);
    // Set empty, the variable is falsy: both checks run, and fail on the 422.
    const ran = await runCli([...run, "--var", "isIntegrationTest="]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /Response contains "user" property: \$\.json\.user does not exist/);
    assert.match(ran.stdout, /Response code is 201: \$\.status: expected 201, got 422/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
