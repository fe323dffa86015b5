import assert from "node:assert/strict";
import { CLEANUP_GRACE_MS, round, traceContext } from "../../lib/run/context.ts";

Deno.test("a well-formed traceparent gives its trace and span ids; anything else none", () => {
  assert.deepEqual(traceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), {
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    span_id: "b7ad6b7169203331",
  });
  assert.equal(traceContext("00-xyz-01"), undefined);
  assert.equal(traceContext(undefined), undefined);
});

Deno.test("times are rounded to 0.1 ms; cleanup may run 10 s after an interrupt", () => {
  assert.equal(round(12.345), 12.3);
  assert.equal(CLEANUP_GRACE_MS, 10_000);
});
