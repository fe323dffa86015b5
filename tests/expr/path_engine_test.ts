import assert from "node:assert/strict";
import { pathEngine } from "../../lib/expr/path_engine.ts";

Deno.test("json-p3 is loaded once, on demand", async () => {
  const loaded = await pathEngine.load();
  assert.equal(await pathEngine.load(), loaded);
  assert.equal(pathEngine.get(), loaded);
  assert.equal(typeof loaded.JSONPathEnvironment, "function");
});
