/** Regular expressions compiled at load time (lib/load/pattern.ts). */
import assert from "node:assert/strict";
import { loadStepFlow } from "../support/step_flow.ts";

Deno.test("an invalid pattern is worded the same in a check and in a capture", () => {
  const check = loadStepFlow(["assert: {json: [{path: $.json.a, matches: '(a'}]}"]).problems;
  const capture = loadStepFlow(["capture: {v: {regex: '(a'}}"]).problems;
  assert.deepEqual(check.map((p) => p.code), ["bad-regex"]);
  assert.equal(check[0].message, capture[0].message);
  assert.match(check[0].message, /^Invalid regular expression "\(a": .+\.$/);
  assert.equal(check[0].hint, "Escape special characters with a backslash, e.g. \\. for a dot.");
});
