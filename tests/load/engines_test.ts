/**
 * Loading stays synchronous while the big parsers load on demand: a load
 * that meets input only one of them reads is run again once it is loaded;
 * any other error is the load's own, and a load that keeps asking stops.
 */
import assert from "node:assert/strict";
import { withEngines } from "../../lib/load/engines.ts";
import { ModuleNeeded, onDemand } from "../../lib/_util/on_demand.ts";

Deno.test("a load that needs an engine runs again once it is loaded", async () => {
  let imports = 0;
  const engine = onDemand("A test engine", () => {
    imports++;
    return Promise.resolve({ twice: (n: number) => n * 2 });
  });
  let runs = 0;
  const value = await withEngines(() => {
    runs++;
    return engine.get().twice(21);
  });
  assert.deepEqual([value, runs, imports], [42, 2, 1]);
  assert.equal(await withEngines(() => engine.get().twice(2)), 4);
  assert.equal(imports, 1);
});

Deno.test("other errors pass through; a load that keeps asking stops", async () => {
  await assert.rejects(() =>
    withEngines(() => {
      throw new RangeError("own");
    }), RangeError);
  let runs = 0;
  const stubborn = () => {
    runs++;
    throw new ModuleNeeded("Another engine", () => Promise.resolve());
  };
  await assert.rejects(() => withEngines(stubborn), ModuleNeeded);
  assert.equal(runs, 3);
});
