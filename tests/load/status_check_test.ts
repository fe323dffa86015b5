/** An assert's `status` (lib/load/status_check.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("one code, or anyOf / in a non-empty list of codes from 100 to 599", () => {
  assert.deepEqual(stepOf(["assert: {status: 201}"]).assert.status?.expected, [201]);
  const anyOf = stepOf(["assert: {status: {anyOf: [200, 204]}}"]).assert.status;
  assert.equal(anyOf?.operator, "anyOf");
  assert.deepEqual(anyOf?.expected, [200, 204]);
  assert.equal(stepOf(["assert: {status: {in: [200]}}"]).assert.status?.operator, "in");
});

Deno.test("wrong statuses: each a wrong-type problem with its fix", () => {
  assert.deepEqual(codesOf(["assert: {status: 99}"]), ["wrong-type"]);
  assert.deepEqual(codesOf(['assert: {status: "200"}']), ["wrong-type"]);
  assert.deepEqual(codesOf(["assert: {status: {}}"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["assert: {status: {anyOf: []}}"]), ["wrong-type"]);
  const [bad] = loadStepFlow(["assert: {status: {anyOf: [200, 700]}}"]).problems;
  assert.equal(bad.message, "Expected a status code from 100 to 599, got the number 700.");
  const both = loadStepFlow(["assert: {status: {anyOf: [200], in: [201]}}"]).problems;
  assert.equal(both[0].message, 'Use either "anyOf" or "in" for "status", not both.');
  assert.deepEqual(codesOf(["assert: {status: {oneOf: [200]}}"]), ["unknown-key"]);
});
