/** `tags` of a flow or a step (lib/load/tags.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("one tag or a list of names --tag can select", () => {
  assert.deepEqual(stepOf(["tags: smoke"]).tags, ["smoke"]);
  assert.deepEqual(stepOf(["tags: [api/v2, 'team:core']"]).tags, ["api/v2", "team:core"]);
  const { flow } = loadFlow(
    "name: f\ntags: [nightly]\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
    "t.yaml",
  );
  assert.deepEqual(flow?.tags, ["nightly"]);
});

Deno.test("a tag --tag cannot select, or one that is not text", () => {
  const [word] = loadStepFlow(["tags: [smoke, not]"]).problems;
  assert.equal(word.message, 'Tag "not" cannot be selected with --tag.');
  const [map] = loadStepFlow(["tags: [{a: 1}]"]).problems;
  assert.equal(map.message, 'Expected "tags" to be a list of tag names, got a map.');
});
