/**
 * `convertCurl`: a sentence that starts with Markdown's inline marks. A push
 * gateway's README wraps a link over two lines, "[Weavework's aggregation" /
 * "gateway](https://…)", far above its commands: the line starts with `[`,
 * not a capitalised word, so it was read as shell and its apostrophe opened a
 * quote that closed and reopened down the page, refusing the text
 * ("Unterminated single quote at line 27"). A link's `[`, emphasis's `*`,
 * `_` or `**`, a `(` or a quotation mark before the capitalised first word
 * still start a sentence; no command starts so (the shell's `[` test is
 * followed by a space).
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const STARTS = [
  "[Weavework's aggregation",
  "*Note that the gateway isn't a store.*",
  "_It's_ a cache.",
  "**Don't** push from a batch job's every instance.",
  "(It's optional.)",
  '"Don\'t" is what the docs say.',
];

Deno.test("a sentence after Markdown's marks is prose, not a quote", () => {
  for (const start of STARTS) {
    const text = [
      "Have a look at",
      start,
      "gateway](https://example.test/gateway).",
      "",
      "        curl -X DELETE http://localhost:9091/metrics/job/some_job",
      "",
      "        curl -X PUT http://localhost:9091/api/v1/admin/wipe",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${start}\n${yaml}`);
  }
});

Deno.test("the shell's [ test keeps its words", () => {
  const text =
    "[ -f body.json ] && curl -d @body.json http://localhost:9091/a\ncurl http://localhost:9091/b\n";
  assert.doesNotThrow(() => convertCurl(text));
  assert.throws(() => convertCurl("[ -f 'a ] && curl http://localhost:9091/a\n"), /Unterminated/);
});
