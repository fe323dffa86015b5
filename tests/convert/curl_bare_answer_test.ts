/**
 * `convertCurl`: docs print a command's answer as a JSON block right under
 * it, with no prompt and no `#` ("Response:" and then the JSON), and a later
 * command sends what it handed out (`"access_token": "eyJhbGc..."`, then
 * `Authorization: Bearer eyJhbGc...`). The block was read as shell: an
 * apostrophe in it refused the whole text, and the token was asked for. A
 * JSON object or list that starts a line after a command has ended (no quote
 * open, no here-document unread) is that command's printed answer. A body
 * inside quotes or a here-document is the command's own. Commands written
 * here in the shape such pages print.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const LOGIN = `curl -X POST "http://localhost:8055/auth/login" \\
  -H "Content-Type: application/json" \\
  -d '{
    "email": "admin@example.com",
    "password": "s3cr3t-pw"
  }'`;
const ANSWER = `{
  "data": {
    "access_token": "eyJhbGciOiJIUzI1NiJ9.e30.sig-Q1w2E3",
    "expires": 900000,
    "note": "don't share it"
  }
}`;
const USE = `curl "http://localhost:8055/items/articles" \\
  -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig-Q1w2E3"`;

Deno.test("a JSON block printed under a command is its answer", () => {
  for (const between of ["\n", "\nResponse:\n", "\n\n"]) {
    const text = `${LOGIN}\n${between}${ANSWER}\n\n${USE}\n`;
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, yaml);
    assert.ok(!summary.env.includes("API_TOKEN"), `${summary.env}\n${yaml}`);
    assert.match(yaml, /access_token: \$\.json\.data\.access_token\n/, yaml);
    assert.match(yaml, /Bearer \$\{steps\.login\.capture\.access_token\}/, yaml);
  }
});

Deno.test("a body in quotes or a here-document stays the command's own", () => {
  const quoted = convertCurl(
    `curl -X POST http://localhost:8055/items -H 'Content-Type: application/json' -d '\n{\n  "title": "a"\n}'\n`,
  );
  assert.match(quoted.yaml, /title: a/, quoted.yaml);
  const heredoc = convertCurl(
    `curl -X POST http://localhost:8055/items -H 'Content-Type: application/json' -d @- <<EOF\n{\n  "title": "b"\n}\nEOF\n`,
  );
  assert.match(heredoc.yaml, /title: b/, heredoc.yaml);
});
