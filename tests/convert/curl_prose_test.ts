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

Deno.test("a sentence that starts with a name in capitals, a list mark or inline code is prose", () => {
  // Parse Server's guide, copied from its page: "AddUnique adds only the given objects which
  // aren't already contained…" between two commands, once a list item of the page's source.
  for (
    const sentence of [
      "AddUnique adds only the objects which aren't in the list yet.",
      "* `AddUnique` adds only the objects which aren't in the list yet.",
      "- GameScore's fields stay as they were.",
      "2. `Delete` removes the field; it's gone for good.",
    ]
  ) {
    const text = `curl -X PUT -d '{"a":1}' http://localhost:7000/scores/1\n\n${sentence}\n\n` +
      `curl -X PUT -d '{"b":2}' http://localhost:7000/scores/1\n`;
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${sentence}\n${yaml}`);
  }
});

Deno.test("a sentence with one apostrophe leaves the answers pasted after it answers", () => {
  // djoser's sample session: `$` prompts and one command without, each answer pasted under it,
  // and sentences between them ("Let's log in:") whose lone apostrophe opened a quote for the
  // scans that find pasted answers: the answers were read as commands and skipped.
  const text = [
    "Register a new user:",
    "",
    "$ curl -X POST http://127.0.0.1:8088/auth/users/ --data 'username=ann&password=alpine12'",
    '{"email": "", "username": "ann", "id":1}',
    "",
    "Let's log in:",
    "",
    "curl -X POST http://127.0.0.1:8088/auth/token/login/ --data 'username=ann&password=alpine12'",
    '{"auth_token": "b704c9fc3655635646356ac2950269f352ea1139"}',
    "",
    "Access is still forbidden but let's offer the token we obtained:",
    "",
    "$ curl http://127.0.0.1:8088/auth/users/me/ -H 'Authorization: Token b704c9fc3655635646356ac2950269f352ea1139'",
    '{"email": "", "username": "ann", "id": 1}',
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 3, yaml);
  const answers = summary.skipped.filter((s) => /: \{/.test(s));
  assert.deepEqual(answers, [], JSON.stringify(summary.skipped));
  assert.match(yaml, /token: \$\.json\.auth_token/, yaml);
});

Deno.test("a sentence whose first word ends with ! or ? or . is prose too", () => {
  // A security guide's "Updated! Now let's check that the password was really changed:" hid
  // the two logins after it, up to the next apostrophe ("user's").
  for (const first of ["Updated!", "Done.", "Really?"]) {
    const text = [
      'curl -X PUT http://localhost:7000/users/ann -d \'{"password":"orange"}\'',
      "",
      `${first} Now let's check that the password was really changed:`,
      "",
      "curl -X POST http://localhost:7000/session -d 'name=ann&password=orange'",
      "",
      "You may wonder why this was so complex - we post the user's document back.",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${first}\n${yaml}`);
  }
});

Deno.test("a sentence wrapped onto a line of its own keeps its apostrophes as prose", () => {
  // A guide's source wraps at 80 columns: "…as well as a\nreference. If you can't remember…"
  // and "…a closer look at our document creation requests with the curl\n-v flag that…"
  // opened quotes that swallowed the commands below, or refused the text.
  const text = [
    "This document is both an introduction to the core API as well as a",
    "reference. If you can't remember how to run a particular request, come back here.",
    "",
    "curl -X PUT http://localhost:7000/albums",
    "",
    "We get back an error, since it exists. Let us try",
    "another database; it won't exist yet, so it's created. Get a fresh UUID from the",
    "/_uuids resource. If you don't remember how, look it up. Or add a",
    "401 Unauthorized error's reason, if it's there:",
    "",
    "curl -X PUT http://localhost:7000/albums-backup",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /albums-backup/, yaml);
});

Deno.test("a line under a command's text with a shell operator is shell still", () => {
  assert.throws(
    () => convertCurl("curl http://localhost:7000/a\necho it's > out\n"),
    /Unterminated/,
  );
});

Deno.test("a sentence quoting code with a stray quote is prose: the commands after it stay", () => {
  // A database's API reference explains a pasted query in a sentence that ends on the query's
  // own closing quote (`… FROM "mymeas"'.`): read as shell, it opened a quote that swallowed
  // the nine commands after it, or refused the text when no later quote closed it.
  const text = [
    `$ curl -G 'http://localhost:8086/query' --data-urlencode 'q=SELECT * FROM "m";SELECT mean("f") FROM "m"'`,
    "",
    '{"results":[{"statement_id":0}]}',
    "",
    `The request includes two queries: SELECT * FROM "m" and SELECT mean("f") FROM "m"'.`,
    "In the results, the system assigns a statement identifier to each query.",
    "",
    `$ curl -G 'http://localhost:8086/query' --data-urlencode 'q=SHOW DATABASES'`,
    "",
    "- A list item's code quoted as \"name\" with a stray ' quote",
    `$ curl -XPOST 'http://localhost:8086/query' --data-urlencode 'q=CREATE DATABASE "d"'`,
    "",
  ].join("\n");
  for (const tail of ["", "Now it's done.\n"]) {
    const { yaml, summary } = convertCurl(text + tail);
    assert.equal(summary.steps, 3, yaml);
    assert.match(yaml, /q=SHOW\+DATABASES/, yaml);
    assert.match(yaml, /CREATE DATABASE/, yaml);
  }
});

Deno.test("a command opening a quote on its first line is still a command", () => {
  const text = "curl -X POST http://localhost:7000/notes -d 'Title here\nand the rest'\n";
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.throws(() => convertCurl("Run this -d 'a=1\n"), /Unterminated/);
});
