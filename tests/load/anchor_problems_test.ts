/** A mistake inside an anchor is one problem, however many aliases read it. */
import assert from "node:assert/strict";
import { AnchorProblems } from "../../lib/load/anchor_problems.ts";

Deno.test("AnchorProblems names the anchor once per mistake", () => {
  const anchors = new AnchorProblems();
  const alias = { source: "article" } as never;
  const at = { line: 4, column: 20 };
  assert.equal(
    anchors.message("unknown-key", 'Unknown key "tpye" (in step "a").', alias, at),
    'Unknown key "tpye" (in step "a"; in the anchor "&article" at line 4:20).',
  );
  assert.equal(anchors.message("unknown-key", 'Unknown key "tpye".', alias, at), undefined);
  // Another mistake at the same place, or the same code elsewhere, is another problem.
  assert.ok(anchors.message("wrong-type", "Bad.", alias, at));
  assert.ok(anchors.message("unknown-key", "Bad.", alias, { line: 5, column: 20 }));
});
