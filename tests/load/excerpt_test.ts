/** The source shown under a problem (lib/load/excerpt.ts). */
import assert from "node:assert/strict";
import { EXCERPT_WINDOW, excerptOf } from "../../lib/load/excerpt.ts";

Deno.test("a short line whole, without its carriage return; no line, no excerpt", () => {
  const text = "a: 1\r\nb: 2\n";
  // Line starts as LineCounter records them: one after every line break.
  const starts = [0, 6, 11];
  assert.deepEqual(excerptOf(text, starts, 1, 1), { excerpt: "a: 1" });
  assert.deepEqual(excerptOf(text, starts, 2, 1), { excerpt: "b: 2" });
  assert.deepEqual(excerptOf(text, starts, 9, 1), {});
});

Deno.test("a long line: the window around the column, a third of it before", () => {
  const line = "y".repeat(2000);
  const { excerpt, excerptStart } = excerptOf(line, [0], 1, 1001);
  assert.equal(excerpt?.length, EXCERPT_WINDOW);
  assert.equal(excerptStart, 1001 - EXCERPT_WINDOW / 3);
  // Near the end the window ends at the line's end.
  assert.equal(excerptOf(line, [0], 1, 1999).excerptStart, 2000 - EXCERPT_WINDOW + 1);
});
