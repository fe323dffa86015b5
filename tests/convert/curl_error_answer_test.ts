/**
 * `convertCurl`: docs that show a refusal print its answer, not its status.
 * djoser's sample session reads the profile without a token and pastes
 * `{"detail": "Authentication credentials were not provided."}`, and after
 * the logout `{"detail": "Invalid token"}`; Parse's guide prints
 * `{"code": 209, "error": "invalid session token"}`. With no status pasted,
 * such a step checked that its status was below 400, and the server's 401,
 * the answer the docs show, failed the run. A pasted answer that is an error
 * object (its members only `detail`, `error`, `errors`, `message`, `code`,
 * `status` and the like, one of them `detail`, `error` or `errors`) checks
 * that the status is a refusal (4xx) now; any other answer keeps below 400.
 * Run against a server started here that answers as djoser does.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const TOKEN = "b704c9fc3655635646356ac2950269f352ea1139";
const DOCS = [
  "$ curl -X POST http://HOST/auth/token/login/ --data 'username=ann&password=alpine12'",
  `{"auth_token": "${TOKEN}"}`,
  "",
  "$ curl -LX GET http://HOST/auth/users/me/",
  '{"detail": "Authentication credentials were not provided."}',
  "",
  `$ curl -LX GET http://HOST/auth/users/me/ -H 'Authorization: Token ${TOKEN}'`,
  '{"email": "", "username": "ann", "id": 1}',
  "",
].join("\n");

/** The steps' `assert` blocks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

Deno.test("a pasted error answer checks for a refusal, any other for below 400", () => {
  const { yaml, summary } = convertCurl(DOCS);
  assert.deepEqual(statuses(yaml), ["{ lt: 400 }", "{ gte: 400, lt: 500 }", "{ lt: 400 }"], yaml);
  assert.ok(summary.notes.some((n) => /1 command whose pasted answer is an error/.test(n)), yaml);
});

Deno.test("an answer with data beside its message is no refusal", () => {
  for (const answer of ['{"message": "created", "id": 3}', '{"error": null, "items": []}']) {
    const text = `curl http://a.test/items\n${answer}\n`;
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }"], answer);
  }
  const parse = 'curl http://a.test/me\n{\n  "code": 209,\n  "error": "invalid session token"\n}\n';
  assert.deepEqual(statuses(convertCurl(parse).yaml), ["{ gte: 400, lt: 500 }"]);
});

Deno.test("run against a server: the refusal the docs show passes, as shown", async () => {
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    if (req.method === "POST") return Response.json({ auth_token: "f".repeat(40) });
    if (req.headers.get("authorization") !== `Token ${"f".repeat(40)}`) {
      return Response.json({ detail: "not provided" }, { status: 401 });
    }
    return Response.json({ username: "ann" });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow({ LOGIN_PASSWORD: "pw" });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});

Deno.test("an error a sentence introduces may be another case's: below 400 stays", () => {
  // Parse's guide: `users/me`, then "If the session token is not valid, an error object is
  // returned:" and the error; the command itself answers the user.
  const text = [
    "curl -H 'X-Parse-Session-Token: r:pnktnjyb996sj4p156gjtp4im' http://a.test/parse/users/me",
    "",
    "If the session token is not valid, an error object is returned:",
    "",
    '{"code": 209, "error": "invalid session token"}',
    "",
  ].join("\n");
  assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }"]);
});

Deno.test("an error a sentence says the command answered is its refusal", () => {
  // A database's guide creates a database twice, "CouchDB replies:" under each, the second
  // answer an error: with the first reading above, its 412, as documented, failed the run.
  const answers = ["CouchDB replies:", "The server answers:", "Response:", "This will return:"];
  for (const says of answers) {
    const text = [
      "curl -X PUT http://a.test/albums",
      "",
      says,
      "",
      '{"ok":true}',
      "",
      "curl -X PUT http://a.test/albums",
      "",
      says,
      "",
      '{"error":"file_exists","reason":"The database could not be created."}',
      "",
    ].join("\n");
    assert.deepEqual(
      statuses(convertCurl(text).yaml),
      ["{ lt: 400 }", "{ gte: 400, lt: 500 }"],
      says,
    );
  }
  for (const condition of ["An error is returned when the name is taken:", "Otherwise:"]) {
    const text = `curl -X PUT http://a.test/albums\n\n${condition}\n\n{"error":"file_exists"}\n`;
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }"], condition);
  }
});
