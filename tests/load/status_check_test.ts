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

Deno.test("bounds: lt, lte, gt, gte, alone or combined, codes or expressions", () => {
  const below = stepOf(["assert: {status: {lt: 400}}"]).assert.status;
  assert.equal(below?.operator, "bounds");
  assert.deepEqual(below?.bounds, [{ op: "lt", value: 400 }]);
  const ok = stepOf(["assert: {status: {gte: 200, lt: 300}}"]).assert.status;
  assert.deepEqual(ok?.bounds?.map((b) => `${b.op} ${b.value}`), ["gte 200", "lt 300"]);
  const from = stepOf(['assert: {status: {lte: "${ENV.MAX:-400}"}}']).assert.status?.bounds?.[0];
  assert.equal(from?.op, "lte");
  assert.equal(from?.from?.kind, "template");
  const polled = stepOf(["loop: {max_attempts: 3, until: {status: {gt: 199, lte: 299}}}"]);
  assert.equal(polled.loop?.until.status?.bounds?.length, 2);
});

Deno.test("wrong bounds: each a problem at the bound, with its fix", () => {
  const [far] = loadStepFlow(["assert: {status: {lt: 700}}"]).problems;
  assert.equal(far.code, "wrong-type");
  assert.equal(
    far.message,
    'Expected "lt" of "status" to be a status code from 100 to 599, got the number 700.',
  );
  assert.equal(far.column, 27);
  assert.deepEqual(codesOf(['assert: {status: {lt: "400"}}']), ["wrong-type"]);
  assert.deepEqual(codesOf(["assert: {status: {lt: [400]}}"]), ["wrong-type"]);
  const [none] = loadStepFlow(["assert: {status: {gt: 400, lt: 300}}"]).problems;
  assert.equal(none.message, 'No status code is > 400 and < 300: "status" would never hold.');
  const [mixed] = loadStepFlow(["assert: {status: {anyOf: [200, 201], lt: 300}}"]).problems;
  assert.equal(
    mixed.message,
    'Use either a list of codes ("anyOf") or bounds ("lt") for "status", not both.',
  );
  assert.deepEqual(codesOf(["assert: {status: {below: 400}}"]), ["unknown-key"]);
  const [empty] = loadStepFlow(["assert: {status: {}}"]).problems;
  assert.match(empty.message, /got an empty map/);
  const [kind] = loadStepFlow(["assert: {status: 2XX}"]).problems;
  assert.equal(kind.hint, "Any 2xx is written with bounds: status: {gte: 200, lt: 300}.");
  assert.match(empty.hint ?? "", /status: \{lt: 400\}/);
});
