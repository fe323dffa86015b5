/**
 * `convert curl`: a terminal session pasted with the shell's second prompt.
 * A certificate authority's API pages print each example as typed at a
 * terminal, `$ curl -d '{…}' \` and, on each line the command goes on to,
 * the `> ` bash prints while it waits for the rest (PS2), then the answer:
 * `>   ${HOST}/api/…/certinfo \` and `>   | python -m json.tool`. Read as
 * shell, each `>` redirected into a file named by the URL: the command was
 * sent to no URL, or skipped. One page also glued its prompt to the command
 * (`$curl -d …`), skipped as the variable `$curl`. The rule: on the lines a
 * prompted command goes on to (the line above ends with `\`, a quote is
 * still open, or a here-document is unfinished) a leading `>` is the
 * shell's prompt, when the first of them has one; `$` glued to `curl` and
 * what starts curl's words is a prompt. A `>` under a command that has ended
 * (curl -v's `> GET / HTTP/1.1`) and a redirect in a script with no prompt
 * stay what they were.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** A page's example as a terminal shows it, answer under it. */
const session = (lines: string[]) =>
  [
    "Example:",
    "",
    ...lines,
    "{",
    '    "success": true,',
    '    "result": {"usages": ["signing"]}',
    "}",
    "",
  ].join("\n");

Deno.test("a > on the lines a prompted command goes on to is the shell's second prompt", () => {
  const { yaml, summary } = convertCurl(session([
    `    $ curl -d '{"label": "primary"}' \\`,
    ">          http://ca.test/api/v1/info \\",
    ">          | python -m json.tool",
  ]));
  assert.equal(summary.steps, 1, yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/v1\/info\n/, yaml);
  assert.match(yaml, /label: primary/, yaml);
  // No line of the command is left over as one of its own.
  assert.ok(!summary.skipped.some((s) => /ca\.test|>|line 4/.test(s)), summary.skipped.join("; "));
});

Deno.test("a quote or a here-document left open goes on over > lines too", () => {
  const quoted = convertCurl(session([
    `$ curl -X POST http://ca.test/api/v1/items -d '{`,
    `>   "name": "tea pot",`,
    `>   "size": 2`,
    `> }'`,
  ]));
  assert.equal(quoted.summary.steps, 1, quoted.yaml);
  assert.match(quoted.yaml, /name: tea pot/, quoted.yaml);
  assert.match(quoted.yaml, /size: 2/, quoted.yaml);
  const heredoc = convertCurl(session([
    "$ curl -X POST http://ca.test/api/v1/items --data-binary @- <<EOF",
    `> {"name": "kettle"}`,
    "> EOF",
  ]));
  assert.equal(heredoc.summary.steps, 1, heredoc.yaml);
  assert.match(heredoc.yaml, /name: kettle/, heredoc.yaml);
});

Deno.test("a prompt glued to curl is a prompt", () => {
  for (const indent of ["", "    "]) {
    const { yaml, summary } = convertCurl(session([
      `${indent}$curl -d '{"label": "primary"}' http://ca.test/api/v1/info`,
    ]));
    assert.equal(summary.steps, 1, `${JSON.stringify(indent)}\n${yaml}`);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/v1\/info\n/, yaml);
  }
  // `$curlopts` is a variable of another name, never curl.
  assert.throws(() => convertCurl("$curlopts http://ca.test/api/v1/info\n"));
});

Deno.test("a > under an ended command, or in a script with no prompt, keeps its reading", () => {
  const verbose = convertCurl(
    "$ curl -v http://ca.test/api/v1/info\n> GET /api/v1/info HTTP/1.1\n> Host: ca.test\n",
  );
  assert.equal(verbose.summary.steps, 1, verbose.yaml);
  const script = "curl http://ca.test/api/v1/info \\\n> info.json\n";
  assert.equal(
    convertCurl(script).yaml,
    convertCurl("curl http://ca.test/api/v1/info > info.json\n").yaml,
  );
  // A later continuation line with no `>`: the session printed none, nothing is changed.
  const mixed = "$ curl http://ca.test/api/v1/info \\\n  -H 'X-A: 1' \\\n> info.json\n";
  assert.equal(
    convertCurl(mixed).yaml,
    convertCurl("$ curl http://ca.test/api/v1/info -H 'X-A: 1' > info.json\n").yaml,
  );
});
