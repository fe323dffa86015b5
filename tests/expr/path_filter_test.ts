/** Filters whose cost the body sets: here when provably cheap, else on the helper thread. */
import assert from "node:assert/strict";
import { cheapHere, evaluateGuarded, FilterTimeout } from "../../lib/expr/path_filter.ts";
import { prepareGuard } from "../../lib/_util/time_guard.ts";

Deno.test("cheapHere: the document's nodes to the path's weight stay under 100,000", () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => i);
  assert.ok(cheapHere(1, list(99_998)));
  assert.ok(!cheapHere(1, list(100_000)));
  assert.ok(cheapHere(2, list(300)));
  assert.ok(!cheapHere(2, list(320)));
  assert.ok(!cheapHere(Infinity, []));
});

Deno.test("evaluateGuarded runs a filter on the helper, the document sent once", async () => {
  await prepareGuard();
  const doc = { items: [{ n: 1 }, { n: 2 }, { n: 3 }] };
  assert.deepEqual(evaluateGuarded("$.items[?@.n > 1].n", doc), [2, 3]);
  assert.deepEqual(evaluateGuarded("$.items[?@.n == 1].n", doc), [1]);
  assert.deepEqual(evaluateGuarded("$[?@ > 1]", [1, 2]), [2]);
  assert.ok(new FilterTimeout("x") instanceof Error);
});
