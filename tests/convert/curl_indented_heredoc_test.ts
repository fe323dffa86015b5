/**
 * `convertCurl`: a here-document in an indented code block. A push gateway's
 * README, as Markdown, indents its examples by eight spaces, the `EOF` that
 * ends `cat <<EOF | curl …` too; bash ends a here-document only at its word
 * alone on a line, so the document ran to the end of the text, and every
 * command after it was its text: 2 of the README's 10 commands were steps.
 * The indent of the line that opens the here-document is the code block's:
 * a line of that indent and the word ends it, and that indent is taken off
 * each of its lines, as the rendered page shows them. A word alone on a line
 * still ends it, as in bash.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const BLOCK = (indent: string) =>
  [
    "* Push something more complex:",
    "",
    `${indent}cat <<EOF | curl --data-binary @- http://localhost:9091/metrics/job/some_job`,
    `${indent}# TYPE some_metric counter`,
    `${indent}some_metric{label="val1"} 42`,
    `${indent}EOF`,
    "",
    "  Note how type information is provided.",
    "",
    `${indent}curl -X DELETE http://localhost:9091/metrics/job/some_job`,
    "",
  ].join("\n");

Deno.test("an indented here-document ends at its indented word, its indent taken off", () => {
  for (const indent of ["", "    ", "        ", "\t"]) {
    const { yaml, summary } = convertCurl(BLOCK(indent));
    assert.equal(summary.steps, 2, JSON.stringify(indent) + yaml);
    assert.match(yaml, /method: DELETE/, yaml);
    assert.ok(
      yaml.includes('body: "# TYPE some_metric counter\\nsome_metric{label=\\"val1\\"} 42\\n"'),
      yaml,
    );
  }
});

Deno.test("a prompted transcript reads the indented here-document the same way", () => {
  const text = [
    "    $ cat <<'EOF' | curl --data-binary @- http://localhost:9091/metrics/job/a",
    "    it's a line",
    "    EOF",
    "",
    "    $ curl http://localhost:9091/api/v1/status",
    '    {"status":"success"}',
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /it's a line/, yaml);
});

Deno.test("a line indented otherwise is the document's text, as in bash", () => {
  const text = "  cat <<EOF | curl --data-binary @- http://localhost:9091/m\n    EOF\nEOF\n";
  const { yaml } = convertCurl(text);
  assert.match(yaml, /EOF/, yaml);
});
