/**
 * `convertCurl`: a session typed after a `> ` prompt, as a database's guide
 * prints it (`> curl -vX DELETE …`, `> HOST="http://…"` then
 * `> curl -X PUT $HOST/…`, the answer under each; measured by hand). Read as
 * shell, `>` redirected nothing into a file named `curl`: the command was
 * dropped without a word. A line whose `> ` (or `% `, zsh's) is followed by
 * `curl` or a `NAME=` assignment is a prompted command, as after `$ `; curl
 * -v's own `> PUT /x HTTP/1.1` and a quote's `> Note` stay what they were.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const GUIDE = [
  "Creating databases is all fine, but how do we get rid of one? Easy:",
  "",
  "PROMPTcurl -vX DELETE http://127.0.0.1:5984/albums-backup",
  "",
  "The verbose lines tell what was sent:",
  "",
  "> DELETE /albums-backup HTTP/1.1",
  "> Host: 127.0.0.1:5984",
  ">",
  "< HTTP/1.1 200 OK",
  "",
  "PROMPTcurl -X PUT http://127.0.0.1:5984/albums",
  '{"ok":true}',
  "",
].join("\n");

Deno.test("a command after a > or % prompt is a step", () => {
  for (const prompt of ["> ", "% ", "  > "]) {
    const { yaml, summary } = convertCurl(GUIDE.replaceAll("PROMPT", prompt));
    assert.equal(summary.steps, 2, `${JSON.stringify(prompt)}\n${yaml}`);
    assert.match(yaml, /method: DELETE/, yaml);
    assert.match(yaml, /method: PUT/, yaml);
  }
});

Deno.test("a prompted assignment is read as the $ prompt's is", () => {
  const text = [
    '> HOST="http://127.0.0.1:5984"',
    "> curl -X PUT $HOST/somedatabase",
    '{"ok":true}',
    "",
  ].join("\n");
  const dollar = convertCurl(text.replaceAll("> ", "$ "));
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.equal(yaml, dollar.yaml);
});

Deno.test("a command after a shell theme's prompt is a step, its printed head the answer", () => {
  // A database's API reference prints `~ curl -sl -I …/ping` (zsh's bare cwd) with the 204's
  // head under it, and `➜  ~ curl -o … ` (oh-my-zsh): the command was skipped as `~`, and the
  // head under it became the answer of the command above (a 200 then checked for a 204).
  const text = (prompt: string) =>
    [
      "Server statistics are displayed in JSON format:",
      "",
      "curl http://localhost:8086/debug/vars",
      "",
      "You can use the /ping endpoint to find the build:",
      "",
      `${prompt}curl -sl -I http://localhost:8086/ping`,
      "",
      "HTTP/1.1 204 No Content",
      "Content-Type: application/json",
      "",
    ].join("\n");
  const prompts = [
    "~ ",
    "➜  ~ ",
    "➜  influxdb git:(master) ✗ ",
    "❯ ",
    "λ ",
    "user@host:~$ ",
    "user@host:~/src/app# ",
    "[user@host ~]$ ",
    "~/src/app $ ",
  ];
  const dollar = convertCurl(text("$ "));
  assert.equal(dollar.summary.steps, 2, dollar.yaml);
  for (const prompt of prompts) {
    const { yaml, summary } = convertCurl(text(prompt));
    assert.equal(summary.steps, 2, `${prompt}\n${yaml}`);
    assert.equal(yaml, dollar.yaml, prompt);
  }
});

Deno.test("a path or a name before curl that no prompt writes stays a command's", () => {
  // `time curl …` and `sudo curl …` run curl (other words before it: no prompt).
  const { summary } = convertCurl(
    "time curl http://localhost:8086/ping\nsudo curl http://localhost:8086/ping\n",
  );
  assert.equal(summary.steps, 2);
});
