import assert from "node:assert/strict";
import type { Problem } from "../../lib/model/errors.ts";
import { formatProblems } from "../../lib/report/problems.ts";
import { style } from "../../lib/report/style.ts";

const problem = (over: Partial<Problem>): Problem => ({
  code: "unknown-key",
  message: 'Unknown key "captures" in step "a".',
  file: "a.yaml",
  line: 5,
  column: 5,
  ...over,
} as Problem);

Deno.test("problems are sorted by file and position, with the source line underlined and the hint", () => {
  const text = formatProblems([
    problem({ file: "b.yaml", line: 1, column: 1 }),
    problem({ length: 8, excerpt: "    captures: {}", hint: 'Did you mean "capture"?' }),
  ], style(false));
  assert.equal(
    text,
    [
      'a.yaml:5:5 error[unknown-key]: Unknown key "captures" in step "a".',
      "5 |     captures: {}",
      "  |     ^^^^^^^^",
      '  hint: Did you mean "capture"?',
      "",
      'b.yaml:1:1 error[unknown-key]: Unknown key "captures" in step "a".',
      "",
      "2 problems in 2 files; nothing was sent.",
      "",
    ].join("\n"),
  );
});

Deno.test("a long source line is shown as a window around the column, the caret moved with it", () => {
  const excerpt = `${"x".repeat(200)}BAD${"y".repeat(200)}`;
  const text = formatProblems([problem({ column: 201, length: 3, excerpt })], style(false));
  const [, source, caret] = text.split("\n");
  assert.ok(source.startsWith("5 | …") && source.endsWith("…"), source);
  assert.equal(caret.indexOf("^^^"), source.indexOf("BAD"));
});

Deno.test("past a hundred problems the rest are counted, and the closing line says what happened", () => {
  const many = Array.from({ length: 103 }, (_, i) => problem({ line: i + 1 }));
  const text = formatProblems(many, style(false), "1 file checked");
  assert.match(text, /… and 3 more problems \(the first 100 are shown;/);
  assert.ok(text.endsWith("103 problems in 1 file; 1 file checked.\n"), text.slice(-80));
});
