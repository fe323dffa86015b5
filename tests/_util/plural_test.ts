/** One way to count things in messages (lib/_util/plural.ts). */
import assert from "node:assert/strict";
import { plural, pluralWord } from "../../lib/_util/plural.ts";

Deno.test("plural writes the number and the word for that many, 0 counting as many", () => {
  assert.equal(plural(1, "flow"), "1 flow");
  assert.equal(plural(2, "flow"), "2 flows");
  assert.equal(plural(0, "flow"), "0 flows");
  assert.equal(plural(1, "entry", "entries"), "1 entry");
  assert.equal(plural(12, "entry", "entries"), "12 entries");
});

Deno.test("pluralWord gives the word alone, for a number written elsewhere", () => {
  assert.equal(pluralWord(1, "line"), "line");
  assert.equal(pluralWord(4, "line"), "lines");
  assert.equal(pluralWord(1, "was", "were"), "was");
  assert.equal(pluralWord(0, "was", "were"), "were");
  assert.equal(pluralWord(2, "it", "them"), "them");
});
