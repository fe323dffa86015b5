/**
 * `convertCurl`: a cookie an API's docs send after their login command is
 * the one that login's answer sets (qBittorrent's WebUI API docs: a form
 * login, then `--cookie "SID=…"` with the docs' own value). It is captured
 * from the login's answer by its name, never asked as SESSION_COOKIE nor
 * written; however curl is told the cookie (`--cookie`, `-b`, a `Cookie`
 * header) and however the login sends its credential (`--data`, `-d`,
 * `--data-urlencode`, `-F`, `--json`, `-u`). A cookie sent before any write,
 * to another origin, after a write that sends no credential, or after a call
 * that carried a session of its own (an `Authorization` header, a cookie) is
 * the user's, still asked for.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const SID = "hBc7TxF76ERhvIw0jQQ4LZ7Z1jQUV0tQ";

const LOGINS = [
  `curl --data 'username=admin&password=adminadmin' http://localhost:8080/api/v2/auth/login`,
  `curl -d username=admin -d password=adminadmin http://localhost:8080/api/v2/auth/login`,
  `curl --data-urlencode username=admin --data-urlencode password=adminadmin http://localhost:8080/api/v2/auth/login`,
  `curl -F username=admin -F password=adminadmin http://localhost:8080/api/v2/auth/login`,
  `curl --json '{"username":"admin","password":"adminadmin"}' http://localhost:8080/api/v2/auth/login`,
  `curl -X POST -u admin:adminadmin http://localhost:8080/api/v2/auth/login`,
];

const SENDS = [
  `curl http://localhost:8080/api/v2/torrents/info --cookie "SID=${SID}"`,
  `curl -b 'SID=${SID}' http://localhost:8080/api/v2/torrents/info`,
  `curl -H 'Cookie: SID=${SID}' http://localhost:8080/api/v2/torrents/info`,
];

Deno.test("a cookie sent after the docs' login is captured from the login's answer", () => {
  for (const login of LOGINS) {
    for (const send of SENDS) {
      const { yaml, summary } = convertCurl(`${login}\n${send}\n`);
      const at = `${login}\n${send}`;
      assert.ok(!yaml.includes(SID), `${at}\n${yaml}`);
      assert.ok(!yaml.includes("adminadmin"), `${at}\n${yaml}`);
      assert.ok(!summary.env.includes("SESSION_COOKIE"), `${at}\n${summary.env}`);
      assert.match(yaml, /capture:\n {6}sid: \{ cookie: SID \}/, `${at}\n${yaml}`);
      assert.match(yaml, /cookie: SID=\$\{steps\.\w+\.capture\.sid\}/, `${at}\n${yaml}`);
    }
  }
});

Deno.test("a cookie no earlier write to its origin could have set is still asked for", () => {
  for (const send of SENDS) {
    // Before any login.
    const first = convertCurl(`${send}\n${LOGINS[0]}\n`);
    assert.ok(first.summary.env.includes("SESSION_COOKIE"), first.yaml);
    assert.doesNotMatch(first.yaml, /\{ cookie: SID \}/);
    // After a login to another origin.
    const other = convertCurl(`${LOGINS[0].replace("localhost:8080", "auth.test")}\n${send}\n`);
    assert.ok(other.summary.env.includes("SESSION_COOKIE"), other.yaml);
    // After a read only.
    const read = convertCurl(`curl http://localhost:8080/api/v2/app/version\n${send}\n`);
    assert.ok(read.summary.env.includes("SESSION_COOKIE"), read.yaml);
    // After a write that was authorized already (it used a session, it made none).
    const authorized = convertCurl(
      `curl -H 'Authorization: Bearer tok-9f8e7d6c5b4a' -d kind=token http://localhost:8080/api/v2/echo\n${send}\n`,
    );
    assert.ok(authorized.summary.env.includes("SESSION_COOKIE"), authorized.yaml);
    const withCookie = convertCurl(
      `curl -b 'theme=dark' -d kind=token http://localhost:8080/api/v2/echo\n${send}\n`,
    );
    assert.ok(withCookie.summary.env.includes("SESSION_COOKIE"), withCookie.yaml);
    // After a write that sends no credential (a note): nothing says it logged in.
    const note = convertCurl(
      `curl -XPOST -d $'line one' -H 'Content-Type: text/plain' http://localhost:8080/api/v2/notes\n${send}\n`,
    );
    assert.ok(note.summary.env.includes("SESSION_COOKIE"), note.yaml);
    for (const { yaml } of [first, other, read, authorized, withCookie, note]) {
      assert.ok(!yaml.includes(SID), yaml);
    }
  }
});

Deno.test("a cookie sent again after the write that set it is the same capture", () => {
  const { yaml, summary } = convertCurl(
    `${LOGINS[0]}\n${SENDS[0]}\n${SENDS[1].replace("torrents/info", "app/version")}\n`,
  );
  assert.ok(!summary.env.includes("SESSION_COOKIE"), yaml);
  assert.equal(yaml.match(/cookie: SID=\$\{steps\.login\.capture\.sid\}/g)?.length, 2, yaml);
});
