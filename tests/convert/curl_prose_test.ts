/**
 * `convertCurl`: a README's commands pasted with the prose around them, as a
 * user copies a section. A sentence between two commands with an apostrophe
 * in a word ("the password isn't used", "Let's log in") opened a quote the
 * shell splitter never saw closed: the whole text was refused as
 * "Unterminated single quote". A line outside any command that starts with a
 * capitalised word and holds an apostrophe inside a word is a sentence, not
 * shell; a command's own lines (a quoted body, a here-document) stay its own,
 * and a quote a command leaves open is still refused at its line.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const DOCS = [
  "Create an account first:",
  "",
  "$ curl -X POST -H 'Content-Type: application/json' -d '{\"name\":\"ann\"}' http://localhost:7000/users",
  "",
  "Note that the list isn't paged:",
  "",
  "$ curl http://localhost:7000/users",
  "",
  "It can't be undone:",
  "",
  "curl -X DELETE http://localhost:7000/users/ann",
  "",
].join("\n");

Deno.test("a sentence with an apostrophe between commands is prose, not a quote", () => {
  const { yaml, summary } = convertCurl(DOCS);
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /method: DELETE/, yaml);
});

Deno.test("a command's own lines keep their apostrophes", () => {
  const heredoc = "curl -d @- http://localhost:7000/notes <<'EOF'\nIt's mine, isn't it\nEOF\n";
  const quoted = 'curl -d "text=\nIt\'s mine" http://localhost:7000/notes\n';
  for (const text of [heredoc, quoted]) {
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 1, yaml);
    assert.match(yaml, /It's mine/, yaml);
  }
});

Deno.test("a quote a command leaves open is still refused", () => {
  assert.throws(
    () => convertCurl("curl -d 'a=1 http://localhost:7000/notes\n\nAll done.\n"),
    /Unterminated/,
  );
});

Deno.test("`curl` written as inline code in a sentence is no command", () => {
  const text =
    "The `curl` command below makes an account:\n\ncurl -X POST http://localhost:7000/users\n";
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.ok(!summary.notes.some((n) => n.includes("no URL")), summary.notes.join("\n"));
  assert.match(yaml, /from 1 curl command/, yaml);
});
