/**
 * `convertCurl`: a Markdown list item between commands. A metrics server's
 * API page lists its error statuses ("- `422 Unprocessable Entity` when an
 * expression can't be executed") above its 28 `$ curl …` examples; the item
 * starts with a list's mark and inline code, not a capitalised word, so it
 * was read as shell and its apostrophe opened a quote that paired with each
 * next command's: all but the last three commands were lost. A line outside
 * any command that starts with a list's mark (`-`, `*`, `+`, `1.`, `2)`)
 * and a space, holds an apostrophe inside a word and runs no curl is prose:
 * no program is called `-`, and an option is written with no space after
 * its dash.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const ITEMS = [
  "- `422 Unprocessable Entity` when an expression can't be executed",
  "- when the server isn't ready",
  "* the query's time, in seconds",
  "+ `<duration>`: it's `5m` for five minutes",
  "1. don't send both",
  "2) `start` isn't required",
  "  - an indented item that's nested",
];

Deno.test("a list item with an apostrophe between commands is prose, not a quote", () => {
  for (const item of ITEMS) {
    const text = [
      "$ curl 'http://localhost:9090/api/v1/query?query=up'",
      "",
      item,
      "",
      "$ curl 'http://localhost:9090/api/v1/labels'",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${item}\n${yaml}`);
    assert.match(yaml, /\/api\/v1\/labels/, item);
  }
});

Deno.test("a list item inside a command's quoted body is the body's", () => {
  const text =
    "curl -d \"notes:\n- it's mine\n* don't\" http://localhost:9090/notes\ncurl http://localhost:9090/b\n";
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /- it's mine/, yaml);
});
