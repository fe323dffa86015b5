import assert from "node:assert/strict";
import { shownBody } from "../../lib/report/console_body.ts";

Deno.test("a JSON body is pretty-printed, short lists and maps kept on one line", () => {
  const body = JSON.stringify({
    id: 1,
    tags: ["a", "b"],
    items: Array.from({ length: 12 }, (_, i) => ({ id: i })),
  });
  assert.deepEqual(shownBody(body, 0), [
    "{",
    '  "id": 1,',
    '  "tags": ["a","b"],',
    '  "items": [',
    '    {"id":0}, {"id":1}, {"id":2}, {"id":3}, {"id":4}, {"id":5}, {"id":6},',
    '    {"id":7}, {"id":8}, {"id":9}, {"id":10}, {"id":11}',
    "  ]",
    "}",
  ]);
});

Deno.test("a long body is cut to a screen unless -vv, saying how much is left", () => {
  const body = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
  const cut = shownBody(body, 1);
  assert.equal(cut.length, 21);
  assert.equal(cut.at(-1), "… 10 more lines (-vv shows all)");
  assert.equal(shownBody(body, 2).length, 30);
  // One line longer than the character budget is still shown, cut.
  assert.equal(shownBody("x".repeat(5000), 0)[0], `${"x".repeat(2000)}…`);
});

Deno.test("characters the report left out are counted, and terminal controls are made visible", () => {
  const lines = shownBody("\x1b[2Jhello", 0, 42);
  assert.ok(!lines[0].includes("\x1b"), lines[0]);
  assert.equal(lines.at(-1), "… 42 more characters (kept out of the reports)");
});
