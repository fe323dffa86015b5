/**
 * The full YAML parser loads on demand, from the package's ES module build
 * when it is laid out as expected, and is the same module each time.
 */
import assert from "node:assert/strict";
import { esmBuildOf, yamlEngine } from "../../lib/load/yaml_engine.ts";
import { ModuleNeeded } from "../../lib/_util/on_demand.ts";

Deno.test("the parser loads once and parses what the package parses", async () => {
  assert.throws(() => yamlEngine.get(), ModuleNeeded, "nothing in this file loaded it yet");
  const first = await yamlEngine.load();
  assert.equal(await yamlEngine.load(), first);
  assert.deepEqual(yamlEngine.get().parse("a: [1, {b: c}]"), { a: [1, { b: "c" }] });
  assert.equal(typeof yamlEngine.get().Composer, "function");
});

Deno.test("the ES module build sits beside the package's entry", () => {
  assert.equal(
    esmBuildOf("file:///c/npm/yaml/2.9.1/dist/index.js"),
    "file:///c/npm/yaml/2.9.1/browser/index.js",
  );
  assert.equal(esmBuildOf("file:///c/npm/yaml/2.9.1/dist/other.js"), undefined);
});
