/** The items of a check list: aliases, groups and XPath (lib/load/check_list.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";
import "../support/engines.ts";

Deno.test("an aliased list of checks is merged in place", () => {
  const text = "name: f\nx-common: &common\n  - {path: $.json.id, exists: true}\nsteps:\n" +
    '  - name: s\n    request: {url: "http://x.test"}\n' +
    "    assert: {json: [*common, {path: $.json.name, type: string}]}\n";
  const { flow, problems } = loadFlow(text, "t.yaml");
  assert.deepEqual(problems.map((p) => p.code), []);
  assert.deepEqual(flow?.steps[0].assert.paths.map((c) => c.path.source), [
    "$.json.id",
    "$.json.name",
  ]);
});

Deno.test("a group's if and else: conditions, names and counts per branch", () => {
  const assertLines = [
    "assert:",
    "  json:",
    "    - name: list",
    "      if: {path: $.json.items, notEquals: []}",
    '      checks: [{path: "$.json.items[0].id", exists: true}]',
    "      else: [{path: $.json.total, equals: 0}, {path: $.json.empty, equals: true}]",
  ];
  const paths = stepOf(assertLines).assert.paths;
  assert.deepEqual(paths.map((c) => c.name), ["list", "list", "list"]);
  const group = paths[0].groups![0].group;
  assert.deepEqual(group.counts, { then: 1, else: 2 });
  assert.deepEqual(paths.map((c) => c.groups![0].branch), ["then", "else", "else"]);
});

Deno.test("else without if; XPath inside a group; checks that are not a list", () => {
  assert.deepEqual(codesOf(["assert: {json: [{checks: [], else: []}]}"]), ["missing-key"]);
  const [xpath] = loadStepFlow([
    "assert: {json: [{at: $.json.a, checks: [{xpath: //title, exists: true}]}]}",
  ]).problems;
  assert.match(xpath.message, /cannot be inside a group with "at" or "if"/);
  assert.deepEqual(codesOf(["assert: {json: [{at: $.json.a, checks: {path: $.b}}]}"]), [
    "wrong-type",
  ]);
  const [top] = stepOf(['assert: {json: [{xpath: "//h1", equals: Hello}]}']).assert.xpaths!;
  assert.equal(top.xpath, "//h1");
});
