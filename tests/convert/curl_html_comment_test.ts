/**
 * `convertCurl`: commands a Markdown page hides in an HTML comment. A chat
 * server's OAuth page keeps an old example inside `<!-- … -->` ("For admin
 * queries, add "X-Admin: true" header: curl -v -X POST -H "X-Admin: true"
 * …"), which the rendered page never shows: it became a step of its own,
 * with a second token to set, and sent a request no reader of the page
 * sends. A comment that starts a line (up to three spaces first, as
 * Markdown's HTML block) outside a code fence and outside a here-document
 * is left out up to its `-->`, lines kept so every other line keeps its
 * number, and each curl command it held is named in a note. So is a
 * reStructuredText comment (`..` and the lines indented under it), which
 * Sphinx never renders either.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const SHOWN = `curl -X GET --oauth2-bearer r9KFladBTYJS71OggKCifo0GJwyT7oY4 \\
     http://localhost:5280/api/registered_users?host=localhost`;

const HIDDEN = [
  [
    "<!--",
    'For admin queries, add "X-Admin: true" header:',
    "",
    "    ",
    '    curl -v -X POST -H "X-Admin: true" -H "Authorization: Bearer Qi4CyTCDtqpUNW3fnRSZLb0OG3XOOjvx" http://localhost:5280/api/get_roster -d \'{"user": "test10", "server": "localhost"}\'',
    "-->",
  ],
  ["<!-- curl -X DELETE http://localhost:5280/api/unregister -->"],
  ["   <!---", "curl http://localhost:5280/api/old", "--->"],
  ["<!-- TODO: don't document", "curl http://localhost:5280/api/stop", "yet -->"],
  // reStructuredText's comment: `..` and what is indented under it.
  ["..", "   curl http://localhost:5280/api/old", "", "   curl http://localhost:5280/api/stop"],
  [".. curl -X DELETE http://localhost:5280/api/unregister"],
  [".. TODO: don't document this yet:", "", "   $ curl http://localhost:5280/api/old"],
];

Deno.test("a curl command inside an HTML comment is left out, with a note", () => {
  for (const hidden of HIDDEN) {
    const text = ["``` sh", SHOWN, "```", "", ...hidden, "", "``` sh", SHOWN, "```", ""].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${hidden.join("\n")}\n${yaml}`);
    assert.doesNotMatch(yaml, /X-Admin|unregister|api\/old|api\/stop/i, yaml);
    assert.doesNotMatch(yaml, /API_TOKEN_2/, yaml);
    const at = text.split("\n").findIndex((l) => /curl /.test(l) && hidden.includes(l)) + 1;
    assert.ok(
      summary.notes.some((n) => n.includes(`line ${at}`) && /inside a comment/.test(n)),
      JSON.stringify(summary.notes),
    );
  }
});

Deno.test("an rST directive's commands are shown, a comment's are not", () => {
  const text = [
    ".. code-block:: console",
    "",
    "   $ curl http://localhost:8001/3.1/domains",
    "",
    ".. _rest-api:",
    "",
    "   $ curl http://localhost:8001/3.1/lists",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.deepEqual(summary.notes.filter((n) => /inside a comment/.test(n)), []);
});

Deno.test("a comment inside a code fence or a here-document is the command's", () => {
  const fenced = ["```html", "<!--", "curl http://localhost:5280/api/shown", "-->", "```", ""];
  const a = convertCurl(fenced.join("\n"));
  assert.equal(a.summary.steps, 1, a.yaml);
  const heredoc = [
    "curl -H 'Content-Type: text/html' --data-binary @- http://localhost:5280/page <<'EOF'",
    "<!-- kept -->",
    "<p>hi</p>",
    "EOF",
    "",
  ];
  const b = convertCurl(heredoc.join("\n"));
  assert.equal(b.summary.steps, 1, b.yaml);
  assert.match(b.yaml, /<!-- kept -->/, b.yaml);
});
