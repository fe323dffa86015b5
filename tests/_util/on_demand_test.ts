import assert from "node:assert/strict";
import { ModuleNeeded, onDemand } from "../../lib/_util/on_demand.ts";

Deno.test("a module on demand asks to be loaded, then is imported once", async () => {
  let imports = 0;
  const later = onDemand("the thing", () => Promise.resolve({ n: ++imports }));
  let error: unknown;
  try {
    later.get();
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof ModuleNeeded);
  assert.equal(error.message, "the thing is not loaded: load it first (mod.ts does).");
  await error.load();
  await later.load();
  assert.deepEqual(later.get(), { n: 1 });
  assert.equal(imports, 1);
});

Deno.test("use() hands over a module the caller imported anyway", () => {
  const later = onDemand("x", () => Promise.resolve(1));
  later.use(7);
  assert.equal(later.get(), 7);
});
