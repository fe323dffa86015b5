/**
 * `convertCurl`: a sentence wrapped onto a second line that quotes code with
 * a stray quote. A metrics server's API page says "… for all targets with" and,
 * on the next line, "label `instance="127.0.0.1:9090`." (the docs' own typo:
 * the `"` is never closed). The second line starts with a lower-case word, so
 * it was not taken for a sentence, and its quote swallowed the page's next
 * ten commands and then refused the text. A line outside any command under a
 * sentence's line (words, no shell mark, no curl run), starting with a
 * lower-case word, with no option and no URL, that leaves a quote open, is
 * the sentence's: prose.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const PAGE = (wrapped: string) =>
  [
    "The following example returns metadata for all metrics for all targets with",
    wrapped,
    "",
    "curl -G http://localhost:9090/api/v1/targets/metadata \\",
    "    --data-urlencode 'match_target={instance=\"127.0.0.1:9090\"}'",
    "",
    "$ curl http://localhost:9090/api/v1/status/config",
    "",
  ].join("\n");

Deno.test("a wrapped sentence's line with a stray quote is prose", () => {
  for (
    const wrapped of [
      'label `instance="127.0.0.1:9090`.',
      "the label `job='node` set.",
      '  and `a="b` as well',
      // A time-series database's README wraps "…by default. The deduplication" onto a
      // contraction: its apostrophe swallowed the four commands after it.
      "isn't applied if `reduce_mem_usage=1` query arg is passed to the request.",
      "doesn't `match=up` anything.",
    ]
  ) {
    const { yaml, summary } = convertCurl(PAGE(wrapped));
    assert.equal(summary.steps, 2, `${wrapped}\n${yaml}`);
    assert.match(yaml, /status\/config/, wrapped);
  }
});

Deno.test("a command's line under a sentence still opens its quote", () => {
  // Not prose: a command's body quoted over two lines, an option, a URL.
  const text = [
    "The following example posts a note with",
    "curl -d 'a=1",
    "b=2' http://localhost:9090/notes",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.throws(
    () => convertCurl("The example below sends\nthe body -d 'a=1\n"),
    /Unterminated/,
  );
});
