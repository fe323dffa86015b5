/** Hints for unknown and missing keys (lib/load/key_hints.ts). */
import assert from "node:assert/strict";
import { KEY_HINTS, REQUIRED_HINTS } from "../../lib/load/key_hints.ts";
import { loadStepFlow } from "../support/step_flow.ts";

Deno.test("a key from another tool gets its flowrun spelling, before edit-distance guesses", () => {
  const [p] = loadStepFlow(["expect: {status: 200}"]).problems;
  assert.equal(p.hint, KEY_HINTS.step.expect);
  const [q] = loadStepFlow(["options: {retries: 2}"]).problems;
  assert.equal(q.hint, KEY_HINTS.options.retries);
});

Deno.test("every hint says something, and required keys say how to add them", () => {
  for (const [set, hints] of Object.entries(KEY_HINTS)) {
    for (const [key, hint] of Object.entries(hints)) {
      assert.ok(hint.length > 10 && hint.trim() === hint, `${set}.${key}`);
    }
  }
  assert.match(REQUIRED_HINTS.url, /^Add "url: …"/);
});
