/**
 * `convertCurl`: a sentence whose only apostrophe ends a plural possessive.
 * A time-series database's README says "Use `http://<victoriametric-addr>:8428`
 * url instead of InfluxDB url in agents' configs." between its commands: a
 * sentence was known by an apostrophe inside a word (`isn't`), so this line
 * was read as shell, its `'` opened a quote, and the next commands were
 * swallowed or the README refused ("Unterminated single quote"). An
 * apostrophe after a word's final `s` and before a blank or a mark
 * (`agents' configs`, `users'.`) is a sentence's too.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

Deno.test("a plural possessive's apostrophe in a sentence opens no quote", () => {
  const sentences = [
    "Use `http://<victoriametric-addr>:8428` url instead of InfluxDB url in agents' configs.",
    "See the users' guide for $HOME and <dir> settings.",
    "- Set the `-dedup.minScrapeInterval` flag on all the replicas' vmselect nodes:",
  ];
  for (const sentence of sentences) {
    const text = [
      "curl http://localhost:8428/api/v1/labels",
      sentence,
      "",
      "```console",
      "curl -d 'measurement,tag1=value1 field1=123' -X POST 'http://localhost:8428/write'",
      "```",
      "curl -G 'http://localhost:8428/api/v1/export' -d 'match={__name__=~\"measurement_.*\"}'",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 3, `${sentence}\n${yaml}`);
  }
});

Deno.test("a command's quoted value ending in s' is still the command's", () => {
  const { yaml, summary } = convertCurl(
    "curl -H 'X-Kind: series' -d 'a=b' http://localhost:8428/api/v1/import\n",
  );
  assert.equal(summary.steps, 1, yaml);
  assert.match(yaml, /x-kind: series/, yaml);
});
