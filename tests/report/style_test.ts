import assert from "node:assert/strict";
import { style } from "../../lib/report/style.ts";
import { style as fromConsole } from "../../lib/report/console.ts";

Deno.test("styling wraps text in ANSI codes when enabled and leaves it alone when not", () => {
  const on = style(true);
  assert.equal(on.green("ok"), "\x1b[32mok\x1b[39m");
  assert.equal(on.red("no"), "\x1b[31mno\x1b[39m");
  assert.equal(on.yellow("skip"), "\x1b[33mskip\x1b[39m");
  assert.equal(on.dim("3 ms"), "\x1b[2m3 ms\x1b[22m");
  assert.equal(on.bold("a.yaml"), "\x1b[1ma.yaml\x1b[22m");
  const off = style(false);
  for (const paint of Object.values(off)) assert.equal(paint("x"), "x");
});

Deno.test("the console reporter's module still hands out the same styling", () => {
  assert.equal(fromConsole(true).red("x"), style(true).red("x"));
});
