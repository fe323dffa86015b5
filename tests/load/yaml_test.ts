/**
 * Reading a flow file's YAML: too large before parsing, the fast path and
 * the full parser giving the same document, nesting and alias limits as
 * positioned problems, and numbers JSON cannot carry as written.
 */
import assert from "node:assert/strict";
import { exactNumbers, fileTooLarge, mebibytes, readYaml } from "../../lib/load/yaml.ts";
import { Loading } from "../../lib/load/context.ts";
import { MAX_FILE_BYTES } from "../../lib/model/limits.ts";
import "../support/engines.ts";

const read = (text: string) => {
  const ctx = new Loading("f.yaml", {});
  return { ok: readYaml(ctx, text), ctx };
};

Deno.test("plain files and files with anchors read alike", () => {
  const plain = read("a: [1, {b: c}]\nd: 'e'\n");
  const anchored = read("a: &x [1, {b: c}]\nd: 'e'\nf: *x\n");
  assert.ok(plain.ok && anchored.ok);
  assert.deepEqual((plain.ctx.doc.contents as { toJSON(): unknown }).toJSON(), {
    a: [1, { b: "c" }],
    d: "e",
  });
  // The alias stays an alias node: the loader reads it through ctx.targets.
  assert.deepEqual(
    (anchored.ctx.doc.contents as { toJSON(): unknown }).toJSON(),
    { a: [1, { b: "c" }], d: "e", f: { source: "x" } },
  );
  assert.equal(anchored.ctx.targets.size, 1);
});

Deno.test("what cannot be read is one positioned problem", () => {
  const big = read(" ".repeat(MAX_FILE_BYTES + 1));
  assert.deepEqual([big.ok, big.ctx.problems[0].code], [false, "file-too-large"]);
  const deep = read(`a: ${"[".repeat(2000)}`);
  assert.deepEqual([deep.ok, deep.ctx.problems[0].code], [false, "yaml-too-deep"]);
  const cycle = read("a: &x [*x]\n");
  assert.deepEqual([cycle.ok, cycle.ctx.problems[0].code], [false, "yaml-too-large"]);
  assert.match(cycle.ctx.problems[0].message, /^The alias "\*x" refers to the value it is part of/);
  const syntax = read("a: [1\n");
  assert.deepEqual([syntax.ok, syntax.ctx.problems[0].code], [false, "yaml-syntax"]);
});

Deno.test("numbers JSON cannot carry as written are problems; others become numbers", () => {
  const { ok, ctx } = read("a: 9007199254740993\nb: .inf\nc: 12\n");
  assert.equal(ok, false);
  // Found walking the tree from its end: the order is the loader's to sort.
  assert.deepEqual(ctx.problems.map((p) => [p.code, p.line]).sort(), [
    ["out-of-range", 1],
    ["out-of-range", 2],
  ]);
  const fine = read("c: 12\n");
  assert.ok(exactNumbers(fine.ctx));
  assert.equal((fine.ctx.doc.contents as { toJSON(): { c: unknown } }).toJSON().c, 12);
});

Deno.test("sizes in messages", () => {
  assert.equal(mebibytes(10 * 1024 * 1024), "10 MiB");
  assert.equal(mebibytes(12.5 * 1024 * 1024), "12.5 MiB");
  assert.match(fileTooLarge("f.yaml", 11 * 1024 * 1024).message, /^The flow file is 11 MiB/);
});
