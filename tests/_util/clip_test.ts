import assert from "node:assert/strict";
import { clipped } from "../../lib/_util/clip.ts";

Deno.test("clipped keeps a short text whole and marks a cut with …", () => {
  assert.equal(clipped("", 3), "");
  assert.equal(clipped("abc", 3), "abc");
  assert.equal(clipped("abcd", 3), "abc…");
  assert.equal(clipped("y".repeat(1000), 300), "y".repeat(300) + "…");
});
