/**
 * `convertCurl`: a backtick that closes nothing on its line. An API mock
 * server's error page prints one example as
 * `curl http://localhost:4010/todos -H "accept: application/json"\`` (a stray
 * backtick) inside a fence, and its last example as inline code with quotes
 * in it (`` `curl -X POST http://localhost:4010/ -A 'Accept: text/plain'` ``):
 * the reader of substitutions looked for a closing backtick across lines, so
 * the stray one paired with the next block's, every later pair shifted, and
 * the last command was swallowed without a word (5 of the page's 6 commands
 * converted; so too an inline command right under a bare "```" fence). A
 * backtick substitution closes on its own line now, never with a fence's or
 * an empty pair's backtick, as the shell reader has it.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

Deno.test("a stray backtick swallows no later command", () => {
  const text = [
    "```",
    'curl http://localhost:4010/todos -H "accept: application/json"`',
    "```",
    "",
    "This error occurs when the `text/*` type is asked.",
    "",
    "```yaml",
    "paths:",
    "```",
    "",
    "`curl -X POST http://localhost:4010/ -A 'Accept: text/plain'`",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/\n/);
});

Deno.test("an inline command under a bare fence is a command", () => {
  for (const command of ["`curl -X POST http://a.test/hello`", "`curl http://a.test/ -H 'A: b'`"]) {
    const { summary } = convertCurl(`\`\`\`\n\n${command}\n`);
    assert.equal(summary.steps, 1, command);
  }
});

Deno.test("a backtick substitution on one line is still run", () => {
  const text = "ID=`curl -s http://a.test/id`\ncurl http://a.test/items/$ID\n";
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 2);
});
