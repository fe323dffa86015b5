/** `headers`, `cookies` and `duration` checks (lib/load/named_checks.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("a header's name is lower-cased; a plain value is equals", () => {
  const [check] = stepOf(["assert: {headers: {Content-Type: json}}"]).assert.paths;
  assert.equal(check.path.source, "$.headers['content-type']");
  assert.equal(check.operator, "equals");
});

Deno.test("a cookie's operators apply to its value, exists to the cookie", () => {
  const checks = stepOf(["assert: {cookies: {sid: {exists: true, equals: x}}}"]).assert.paths;
  assert.deepEqual(checks.map((c) => c.path.source), [
    "$.cookies['sid']",
    "$.cookies['sid'].value",
  ]);
  assert.deepEqual(codesOf(["assert: {cookies: [sid]}"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["assert: {cookies: {sid: {}}}"]), ["missing-key"]);
});

Deno.test("duration: comparisons only, durations as milliseconds", () => {
  const [check] = stepOf(["assert: {duration: {lte: 1.5s}}"]).assert.paths;
  assert.equal(check.name, "response time");
  assert.deepEqual(check.expected, { kind: "const", value: 1500 });
  const [p] = loadStepFlow(["assert: {duration: {equals: 5}}"]).problems;
  assert.equal(
    p.message,
    '"duration" in "assert" of step "s" takes lt, lte, gt or gte, not "equals".',
  );
});
