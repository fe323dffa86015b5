/** One way to put a literal text in a pattern (lib/_util/regex_escape.ts). */
import assert from "node:assert/strict";
import { escapeRegExp, escapeRegExpSlash } from "../../lib/_util/regex_escape.ts";

// Every printable ASCII character, alone and all together: an escaped text
// matches itself exactly, under both flags a pattern may be compiled with.
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

Deno.test("an escaped text matches itself and nothing else, in both modes", () => {
  for (const escape of [escapeRegExp, escapeRegExpSlash]) {
    for (const text of [PRINTABLE, ...PRINTABLE]) {
      for (const flags of ["", "u"]) {
        const pattern = new RegExp(`^${escape(text)}$`, flags);
        assert.ok(pattern.test(text), `${escape.name} ${JSON.stringify(text)} /${flags}`);
        if (text.length === 1 && text !== "x") assert.ok(!pattern.test("x"), JSON.stringify(text));
      }
    }
  }
});

Deno.test("only the slash variant escapes a slash, as flows already written spell it", () => {
  assert.equal(escapeRegExp("/a.b/"), "/a\\.b/");
  assert.equal(escapeRegExpSlash("/a.b/"), "\\/a\\.b\\/");
  assert.equal(escapeRegExp("id-7_x"), "id-7_x");
});
