/**
 * `convertCurl`: a session that sets a shell variable, then sends it, as a
 * database's security guide does (measured by hand):
 * `> HOST="http://admin:password@127.0.0.1:5984"`, `> NODENAME="_local"`,
 * `> curl -X PUT $HOST/_node/$NODENAME/_config/admins/anna -d '"secret"'`,
 * later `HOST="http://127.0.0.1:5984"` and `HOST="http://anna:secret@…"`.
 * `$HOST` and `$NODENAME` were asked as variables to set, one value for
 * every command, where the shell sends what the text assigned last. A
 * variable a line of the text assigns (`NAME=value`, `export NAME=value`,
 * after a prompt or not) is that value in the commands after it, until the
 * next assignment; one the text never assigns, or assigns from a command's
 * output (`$(curl …)`), is read as before.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const GUIDE = [
  '> HOST="http://admin:password@127.0.0.1:5984"',
  '> NODENAME="_local"',
  "> curl -X PUT $HOST/_node/$NODENAME/_config/admins/anna -d '\"secret\"'",
  '""',
  "",
  "CouchDB will not allow us to create new databases without credentials:",
  "",
  '> HOST="http://127.0.0.1:5984"',
  "> curl -X PUT $HOST/somedatabase",
  '{"error":"unauthorized","reason":"You are not a server admin."}',
  "",
  '> HOST="http://anna:secret@127.0.0.1:5984"',
  "> curl -X PUT $HOST/somedatabase",
  '{"ok":true}',
  "",
].join("\n");

Deno.test("a variable the text assigns is its value, the last one assigned", () => {
  const { yaml, summary } = convertCurl(GUIDE);
  assert.equal(summary.steps, 3, yaml);
  assert.ok(!summary.env.includes("HOST") && !summary.env.includes("NODENAME"), yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/_node\/_local\/_config\/admins\/anna/, yaml);
  // The admin's credentials go with the first command only, anna's with the last.
  const steps = yaml.split("\n  - name: ").slice(1);
  assert.match(steps[0], /username: admin/, steps[0]);
  assert.doesNotMatch(steps[1], /auth:/, steps[1]);
  assert.match(steps[2], /username: anna/, steps[2]);
  assert.doesNotMatch(yaml, /secret@|password@/, yaml);
});

Deno.test("export and a bare assignment count; a command's prefix does not", () => {
  const text = [
    "export API=http://127.0.0.1:5984",
    "DB=albums",
    "curl -X PUT $API/$DB",
    "DB=other curl -X PUT $API/$DB",
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.equal([...yaml.matchAll(/url: \$\{vars\.base_url\}\/albums\n/g)].length, 2, yaml);
});

Deno.test("a variable never assigned, or assigned a command's output, is asked as before", () => {
  const { summary } = convertCurl('curl -H "Authorization: Bearer $TOKEN" http://a.test/me\n');
  assert.deepEqual(summary.env, ["TOKEN"]);
  const text = [
    "TOKEN=$(curl -s -X POST http://a.test/login -d 'user=ann&password=alpine12' | jq -r .token)",
    'curl -H "Authorization: Bearer $TOKEN" http://a.test/me',
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.match(yaml, /Bearer \$\{steps\.\w+\.capture\.\w+\}/, yaml);
});

Deno.test("the summary names a skipped assignment, never its value", () => {
  const { summary } = convertCurl(GUIDE);
  const said = summary.skipped.join("\n");
  assert.match(said, /HOST=…/, said);
  assert.doesNotMatch(said, /password|secret/, said);
});
