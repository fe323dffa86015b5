/** One `{path, operator…}` check (lib/load/path_check.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";
import "../support/engines.ts";

Deno.test("a check per operator, named, with each for paths that select several", () => {
  const checks = stepOf([
    "assert: {json: [{path: '$.json[*].id', each: true, name: ids, type: integer, gt: 0}]}",
  ])
    .assert.paths;
  assert.deepEqual(checks.map((c) => [c.operator, c.name, c.each]), [
    ["type", "ids", true],
    ["gt", "ids", true],
  ]);
});

Deno.test("each on a path that selects one, each not a boolean, no operator", () => {
  const [one] =
    loadStepFlow(['assert: {json: [{path: "$.json.items[0]", each: true, exists: true}]}'])
      .problems;
  assert.match(one.hint!, /\$\.json\.items\[\*\]/);
  assert.deepEqual(codesOf(["assert: {json: [{path: $.json.a, each: yes, exists: true}]}"]), [
    "wrong-type",
  ]);
  assert.deepEqual(codesOf(["assert: {json: [{path: $.json.a}]}"]), ["missing-key"]);
  // An unknown key is the one mistake, not also "no operator".
  assert.deepEqual(codesOf(["assert: {json: [{path: $.json.a, eq: 1}]}"]), ["unknown-key"]);
});
