import assert from "node:assert/strict";
import { inertForCi, visible } from "../../lib/report/terminal.ts";

Deno.test("controls, line breaks and bidirectional overrides are shown escaped, other text as it is", () => {
  assert.equal(
    visible("a\x1b[31mb\r\nc\x07d\u202ee\u2028"),
    "a\\e[31mb\\r\\nc\\x07d\\u202ee\\u2028",
  );
  assert.equal(visible("tab\tstays, é 🙂"), "tab\tstays, é 🙂");
  assert.equal(visible("\x7f\x9b"), "\\x7f\\x9b");
});

Deno.test("lines a CI runner would run become inert; others are untouched", () => {
  assert.equal(inertForCi("::error::x\n"), "\\x3a:error::x\n");
  assert.equal(inertForCi("\t##[group]g\n"), "\t\\x23#[group]g\n");
  assert.equal(
    inertForCi("a ##vso[task.complete] b ##vso[x]"),
    "a \\x23#vso[task.complete] b \\x23#vso[x]",
  );
  const plain = "passed: a::b ## c\n";
  assert.equal(inertForCi(plain), plain);
});
