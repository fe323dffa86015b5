import assert from "node:assert/strict";
import * as face from "../../../lib/convert/correlate/mod.ts";

Deno.test("correlate/mod.ts gives the pipeline and what the writer and --verify use", () => {
  for (const name of ["correlate", "newCorrelator", "secretEnv", "stablePath", "useProducer"]) {
    assert.equal(typeof (face as Record<string, unknown>)[name], "function", name);
  }
  assert.equal(face.correlate([], [], "a").steps.length, 0);
});
