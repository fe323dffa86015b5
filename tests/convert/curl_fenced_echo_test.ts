/**
 * `convertCurl`: a quoted body that opens right under a Markdown fence. A
 * time-series database's API examples print `echo '` alone under
 * ```` ```console ````, the JSON on the next lines, and `' | curl
 * --data-binary @- …` after them. The fence's info string was taken for a
 * sentence's line and `echo '` for the sentence wrapped onto the next one,
 * so its quote was prose: the JSON was dropped, `' | curl` opened a quote,
 * and the page was refused ("Unterminated single quote"). A fence (```` ``` ````
 * or `~~~`, with or without a language) is no sentence.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const BLOCK = (fence: string, n: number) =>
  [
    fence,
    "echo '",
    "{",
    `  "series": [{"metric": "system.load.${n}", "points": [[0, 0.5]]}]`,
    "}",
    `' | curl -X POST --data-binary @- 'http://localhost:8428/datadog/api/v1/series'`,
    fence.slice(0, 3),
    "",
  ].join("\n");

Deno.test("a quote opened under a Markdown fence is the command's, not prose", () => {
  for (const fence of ["```console", "```", "```bash", "~~~sh"]) {
    const text = `Single-node:\n\n${BLOCK(fence, 1)}\nCluster version:\n\n${BLOCK(fence, 5)}`;
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${fence}\n${yaml}`);
    assert.match(yaml, /metric: system\.load\.1\n/, yaml);
    assert.match(yaml, /metric: system\.load\.5\n/, yaml);
  }
});
