import assert from "node:assert/strict";
import { everyStep, type Flow, isDeferred } from "../../lib/model/flow.ts";

const flow = (name: string, steps: unknown[]): Flow =>
  ({ file: `${name}.yaml`, name, vars: [], steps }) as unknown as Flow;

Deno.test("everyStep visits each flow's steps and each included flow once, with their check blocks", () => {
  const until = { paths: [] };
  const inner = flow("inner", [{ name: "i", assert: { paths: [] }, loop: { until } }]);
  const outer = flow("outer", [
    { name: "a", assert: { paths: [] }, include: { file: "inner.yaml", flow: inner, with: [] } },
    { name: "b", assert: { paths: [] }, include: { file: "inner.yaml", flow: inner, with: [] } },
  ]);
  const seen = [...everyStep([outer, inner])];
  assert.deepEqual(seen.map((s) => s.step.name), ["a", "i", "b"]);
  assert.equal(seen[1].checks.length, 2, "a loop's until is a check block too");
  assert.equal(seen[1].checks[1], until);
});

Deno.test("isDeferred tells a flow held as bytes from a loaded one", () => {
  const loaded = flow("a", []);
  assert.equal(isDeferred(loaded), false);
  assert.equal(
    isDeferred({ file: "a.yaml", name: "a", load: () => Promise.resolve(loaded) }),
    true,
  );
});
