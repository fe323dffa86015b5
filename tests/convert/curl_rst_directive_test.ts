/**
 * `convertCurl`: a reStructuredText page's directives between commands. A
 * mail server's REST API page (Sphinx) writes its notes as admonitions under
 * its `$ curl …` examples (".. note:: Note that by default, Mailman's REST
 * API accepts both …"): the line starts with `..`, not a capitalised word,
 * so it was read as shell and its apostrophe opened a quote never closed:
 * the whole page was refused ("Unterminated single quote"). An explicit
 * markup line (`.. note::`, `.. warning::`, `.. versionadded:: 3.1`, a
 * comment's `..`) outside any command, holding an apostrophe inside a word
 * and running no curl, is prose, and so is the indented text under it that
 * wraps its sentence: no program is called `..`.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const DIRECTIVES = [
  [".. note:: Note that by default, Mailman's REST API accepts both"],
  [".. warning:: Don't expose the REST API to the public internet."],
  [".. tip::", "   The server's port is ``8001`` unless changed."],
  [
    ".. note:: For authentication, the username and password are",
    "          only the defaults: they're meant to be changed.",
  ],
  [".. versionadded:: 3.1 The API's ``PATCH`` requests"],
  [".. seealso:: The client's own docs."],
  [".. this comment isn't shown on the page"],
  ["  .. important:: It's indented under a list item."],
];

Deno.test("an rST directive with an apostrophe between commands is prose, not a quote", () => {
  for (const lines of DIRECTIVES) {
    const text = [
      "$ curl --user restadmin:restpass http://localhost:8001/3.1/domains",
      "",
      ...lines,
      "",
      "$ curl --user restadmin:restpass http://localhost:8001/3.1/lists",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${lines.join("\n")}\n${yaml}`);
    assert.match(yaml, /\/3\.1\/lists/, lines[0]);
  }
});

Deno.test("a code-block directive still opens the commands under it", () => {
  const text = [
    "To use Kea's RESTful API with ``curl``, use the following:",
    "",
    ".. code-block:: console",
    "",
    `   $ curl -X POST -H "Content-Type: application/json" -d '{ "command": "config-get" }' http://kea.example.org:8000/`,
    "",
    ".. note:: It's the agent's port.",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.match(yaml, /command: config-get/, yaml);
});

Deno.test("an rST mark inside a command's quoted body is the body's", () => {
  const text =
    'curl -d "notes:\n.. note:: it\'s mine\n" http://localhost:8001/notes\ncurl http://localhost:8001/b\n';
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /\.\. note:: it's mine/, yaml);
});
