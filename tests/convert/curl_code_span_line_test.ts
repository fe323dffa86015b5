/**
 * `convert curl`: a sentence wrapped so that a line starts with inline code holding a quote. An
 * issue tracker's REST page (rST, wrapped at 70 columns) says "… using an\n``If-Match`` header
 * or an ``"@etag`` property in the data payload …": read as shell, the line's `"` opened a quote
 * that swallowed the text up to the next `"` and refused the page ("Unterminated double
 * quote"), since a sentence's line was known by a word first (a capitalised one, or a
 * lower-case one under a sentence), never by code. A line that starts with a code span (rST's
 * ``` ``…`` ```, Markdown's `` `…` ``) and goes on in words, with no option, no URL and no curl
 * run, whose quote is left open, is a sentence's: no command starts with a code span, whose
 * output the shell would run. Pages written here in our own words.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** Two commands with a paragraph between them; `line` is one of its wrapped lines. */
const page = (line: string) =>
  [
    "Read an item first::",
    "",
    "  curl -s -u demo:demo http://localhost:8917/rest/data/item/1",
    "",
    "Every change must send the item's version back, using an",
    line,
    "the method takes a body. The version is in the answer.",
    "",
    "Then change it::",
    "",
    "  curl -s -u demo:demo -X PATCH -H 'If-Match: \"v1\"' \\",
    "      http://localhost:8917/rest/data/item/1",
    "",
  ].join("\n");

const LINES = [
  '``If-Match`` header or an ``"@version`` field in the payload when',
  '`If-Match` header or a `"@version` field in the payload when',
  '``"@version``, a field of the payload, or a header when',
];

Deno.test("a wrapped line starting with inline code that opens a quote is prose", () => {
  for (const line of LINES) {
    const { yaml, summary } = convertCurl(page(line));
    assert.equal(summary.steps, 2, `${line}\n${yaml}`);
    assert.match(yaml, /method: PATCH/, line);
  }
});

Deno.test("a line starting with code that holds an option or a URL is still read as shell", () => {
  const text = [
    "curl -s http://localhost:8917/rest/data/item/1",
    "",
    '``x`` -d "a',
    'b" http://localhost:8917/rest',
    "",
  ].join("\n");
  assert.throws(() => convertCurl(`${text}\n\`x\` http://localhost:8917/ "\n`));
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 1);
});
