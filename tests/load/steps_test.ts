/** The `steps` list and each step (lib/load/steps.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("a step's keys: depends_on one name or a list, always, if, tags", () => {
  const text = 'name: f\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n' +
    '  - name: b\n    request: {url: "http://x.test"}\n    depends_on: [a]\n    always: true\n' +
    '    if: {value: "${ENV.X:-1}", equals: "1"}\n    tags: [smoke]\n';
  const b = loadFlow(text, "t.yaml").flow!.steps[1];
  assert.deepEqual([b.dependsOn, b.always, b.when?.length, b.tags], [["a"], true, 1, ["smoke"]]);
});

Deno.test("a GraphQL step checks for errors unless it reads them itself", () => {
  const gql = '{url: "http://x.test", graphql: {query: "{a}"}}';
  const text = (extra: string) => `name: f\nsteps:\n  - name: s\n    request: ${gql}\n${extra}`;
  const own = loadFlow(text(""), "t.yaml").flow!.steps[0].assert.paths;
  assert.equal(own[0].name, "no GraphQL errors");
  const read =
    loadFlow(text("    assert: {json: [{path: $.json.errors, exists: true}]}\n"), "t.yaml")
      .flow!.steps[0].assert.paths;
  assert.deepEqual(read.map((c) => c.name), [undefined]);
});

Deno.test("mistakes: no request, a misspelt include, always not a boolean, duplicate names", () => {
  const [noRequest] = loadFlow("name: f\nsteps:\n  - name: s\n", "t.yaml").problems;
  assert.equal(noRequest.message, 'Missing key "request" in step "s".');
  const [use] = loadFlow("name: f\nsteps:\n  - name: s\n    use: other.yaml\n", "t.yaml").problems;
  assert.equal(use.code, "unknown-key");
  assert.deepEqual(codesOf(["always: sometimes"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["depends_on: [{a: 1}]"]), ["wrong-type"]);
  const dup = 'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
    '  - name: s\n    request: {url: "http://x.test"}\n';
  assert.deepEqual(loadFlow(dup, "t.yaml").problems.map((p) => p.code), ["duplicate-step"]);
  assert.equal(stepOf().name, "s");
  assert.deepEqual(loadStepFlow(["tags: [a b]"]).problems.map((p) => p.code), ["bad-name"]);
});
