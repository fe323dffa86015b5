import assert from "node:assert/strict";
import { checkPath } from "../../lib/check/path_check.ts";
import type { CheckContext } from "../../lib/check/context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { PLAIN } from "../../lib/model/masking.ts";
import type { PathCheck } from "../../lib/model/flow.ts";
import "../support/engines.ts";

/** The one path check a `json` entry makes. */
function pathCheck(entry: string): PathCheck {
  const { flow, problems } = loadFlow(
    `name: p\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n        - ${entry}\n`,
    "p.yaml",
  );
  assert.deepEqual(problems, []);
  return flow!.steps[0].assert.paths[0];
}

function on(body: string, type = "application/json"): CheckContext {
  return {
    response: new ReceivedResponse(200, { "content-type": type }, body),
    scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
    phase: "assert",
    display: PLAIN,
  };
}

const message = (entry: string, body: string, type?: string) =>
  checkPath(pathCheck(entry), on(body, type)).message;

Deno.test("a result has the reports' keys in their order, where it is written last", () => {
  const result = checkPath(pathCheck("{path: $.json.n, gt: 1}"), on('{"n": 0}'));
  assert.deepEqual(Object.keys(result), [
    "phase",
    "path",
    "operator",
    "expected",
    "actual",
    "found",
    "passed",
    "message",
    "line",
    "column",
  ]);
  assert.equal(result.message, "$.json.n: expected a number > 1, got 0");
  // A check is placed at its operator, where the expected value is written.
  assert.deepEqual([result.line, result.column], [7, 28]);
});

Deno.test("exists, nothing matched, a body that is not JSON, and each", () => {
  assert.equal(message("{path: $.json.a, exists: true}", '{"a": 1}'), "$.json.a exists");
  assert.equal(message("{path: $.json.a, exists: false}", "{}"), "$.json.a does not exist");
  assert.equal(
    message("{path: $.json.a, exists: false}", '{"a": 1}'),
    "$.json.a: expected nothing, found number 1",
  );
  assert.equal(
    message("{path: $.json.a, equals: 1}", "<html>", "text/html"),
    "$.json.a: nothing matched (the response body is not JSON)",
  );
  assert.equal(
    message('{path: "$.json.xs[*]", each: true, gt: 0}', '{"xs": [1, 2, 0]}'),
    "$.json.xs[*]: value 3 of 3: expected a number > 0, got 0",
  );
  assert.equal(
    message('{path: "$.json.xs[*]", each: true, gt: 0}', '{"xs": [1, 2]}'),
    "$.json.xs[*]: gt 0 holds for each of 2",
  );
});

Deno.test("a named check leads its message with its name", () => {
  const result = checkPath(pathCheck("{path: $.json.n, equals: 1, name: one}"), on('{"n": 2}'));
  assert.equal(result.name, "one");
  assert.equal(result.message, "one: $.json.n: expected 1, got 2");
});

Deno.test("a check under at: on each value, the first failure; a singular at that matched nothing fails", () => {
  const each = pathCheck('{at: "$.json.items[*]", checks: [{path: $.id, gt: 0}]}');
  assert.equal(
    checkPath(each, on('{"items": [{"id": 1}, {"id": 0}]}')).message,
    "$.json.items[*] value 2 of 2 › $.id: expected a number > 0, got 0",
  );
  const all = checkPath(each, on('{"items": [{"id": 1}, {"id": 2}]}'));
  assert.equal(all.path, "$.json.items[*] › $.id");
  assert.equal(all.message, "$.json.items[*] › $.id: gt 0 holds for each of 2");
  const one = pathCheck("{at: $.json.item, checks: [{path: $.id, gt: 0}]}");
  assert.equal(checkPath(one, on("{}")).message, "$.json.item › $.id: $.json.item matched nothing");
});
