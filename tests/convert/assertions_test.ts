import assert from "node:assert/strict";
import { addAssertions } from "../../lib/convert/assertions.ts";
import type { Step } from "../../lib/convert/model.ts";

const stepOf = (json: unknown, sent = new Map()) =>
  ({ last: { hasJson: true, json }, sent, checks: [] }) as unknown as Step;

Deno.test("a sent value is expected back; a stable word pinned unless written later; the rest typed", () => {
  const step = stepOf({
    name: "Widget ${RUN_ID}",
    state: "new",
    status: "open",
    id: "ord_1a2b3c4d",
    tags: [],
    gone: null,
  });
  step.sent.set("name", { raw: "Widget ${RUN_ID}", template: "Widget ${RUN_ID}" });
  addAssertions(step, new Set(), (key) => key === "status");
  assert.deepEqual(step.checks, [
    { path: ["name"], op: "equals", value: "Widget ${RUN_ID}" },
    { path: ["state"], op: "equals", value: "new" },
    { path: ["status"], op: "type", value: "string" },
    { path: ["id"], op: "type", value: "string" },
    { path: ["tags"], op: "type", value: "array" },
  ]);
});

Deno.test("a secret is never expected; a list body is typed once; at most 15 fields", () => {
  const secret = stepOf({ token: "abcdefgh12345678" });
  addAssertions(secret, new Set(["abcdefgh12345678"]), () => false);
  assert.deepEqual(secret.checks, [{ path: ["token"], op: "type", value: "string" }]);
  const list = stepOf([1, 2]);
  addAssertions(list, new Set(), () => false);
  assert.deepEqual(list.checks, [{ path: [], op: "type", value: "array" }]);
  const wide = stepOf(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])));
  addAssertions(wide, new Set(), () => false);
  assert.equal(wide.checks.length, 15);
});
