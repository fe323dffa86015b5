import assert from "node:assert/strict";
import { FlowLoadError, SyntaxAtError, UsageError } from "../../lib/model/errors.ts";

Deno.test("errors carry a stable code, a message and a hint", () => {
  const usage = new UsageError("bad-option", "Unknown option.", "Try --help.");
  assert.deepEqual([usage.name, usage.code, usage.message, usage.hint], [
    "UsageError",
    "bad-option",
    "Unknown option.",
    "Try --help.",
  ]);
  const syntax = new SyntaxAtError("bad-path", "Invalid.", 3);
  assert.deepEqual([syntax.code, syntax.offset, syntax.hint], ["bad-path", 3, undefined]);
});

Deno.test("a flow load error counts its problems", () => {
  const problem = { file: "f.yaml", line: 1, column: 1, code: "x", message: "m" };
  assert.equal(
    new FlowLoadError([problem]).message,
    "1 problem in the flow files; nothing was sent.",
  );
  assert.equal(
    new FlowLoadError([problem, problem]).message,
    "2 problems in the flow files; nothing was sent.",
  );
  assert.equal(new FlowLoadError([problem]).code, "flow-load");
});
