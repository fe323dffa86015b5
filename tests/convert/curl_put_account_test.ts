/**
 * `convertCurl`: a database's guide signs a user up with a PUT naming the
 * account in its path (`PUT /_users/org.couchdb.user:jan`,
 * `{"name":"jan","password":…}`), logs in with it and reads it. Sent as
 * written, run 2 on the same server is refused at the sign-up (409). The
 * account is the run's own now in the path, the body, the login and the
 * reads alike. Run twice against a server started here that refuses a
 * duplicate account and a body naming another account than its path.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS = [
  "Create a user:",
  "",
  "curl -X PUT http://HOST/_users/org.couchdb.user:jan \\",
  '     -H "Accept: application/json" \\',
  '     -H "Content-Type: application/json" \\',
  `     -d '{"name": "jan", "password": "apple", "roles": [], "type": "user"}'`,
  "",
  "Log in:",
  "",
  "curl -X POST http://HOST/_session -d 'name=jan&password=apple'",
  "curl http://jan:apple@HOST/_users/org.couchdb.user:jan",
  "curl -u jan:apple http://HOST/_users/org.couchdb.user:jan",
  "",
].join("\n");

Deno.test("a PUT naming the account in its path: the name is the run's own everywhere", () => {
  const { yaml, summary } = convertCurl(DOCS);
  const why = `${yaml}\n${summary.notes.join("\n")}`;
  assert.match(yaml, /account_name: jan-\$\{RUN_ID\}/, why);
  // The PUT's path and body, the login's form, two reads' paths and users.
  assert.equal(yaml.match(/\$\{vars\.account_name\}/g)?.length, 7, why);
  assert.doesNotMatch(yaml.replace(/^\s*(#.*|account_name: jan-.*)$/gm, ""), /\bjan\b|apple/, why);
});

Deno.test("a PUT whose path names no field it sends, or a password change, is no sign-up", () => {
  const put = (path: string) =>
    `curl -X PUT http://a.test${path} -H 'Content-Type: application/json' -d '{"name":"jan","password":"apple"}'`;
  const login = "curl -u jan:apple http://a.test/_session";
  assert.doesNotMatch(convertCurl(`${put("/_users/me")}\n${login}\n`).yaml, /RUN_ID/);
  const read = "curl http://a.test/_users/org.couchdb.user:jan";
  const change = `${read}\n${put("/_users/org.couchdb.user:jan")}\n${login}\n`;
  assert.doesNotMatch(convertCurl(change).yaml, /RUN_ID/);
});

/** Accounts by path (a duplicate refused 409), a session form, reads by basic auth. */
function server(statuses: number[]) {
  const accounts = new Map<string, string>();
  const answer = (status: number) => {
    statuses.push(status);
    return Response.json({ ok: status < 400 }, { status });
  };
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    const text = await req.text();
    const user = /^\/_users\/org\.couchdb\.user:(.+)$/.exec(path)?.[1];
    if (req.method === "PUT" && user) {
      const body = JSON.parse(text);
      if (body.name !== user) return answer(400);
      if (accounts.has(user)) return answer(409);
      accounts.set(user, body.password);
      return answer(201);
    }
    if (path === "/_session") {
      const form = new URLSearchParams(text);
      return answer(accounts.get(form.get("name") ?? "") === form.get("password") ? 200 : 401);
    }
    const [name, pass] = atob((req.headers.get("authorization") ?? "").slice(6)).split(":");
    return answer(user === name && accounts.get(name) === pass ? 200 : 401);
  });
}

Deno.test("run twice on one server: the PUT sign-up, its login and its reads pass both times", async () => {
  const statuses: number[] = [];
  await using s = server(statuses);
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, readFlow }) => {
    const env = Object.fromEntries(convertCurl(DOCS).summary.env.map((n) => [n, "apple"]));
    for (const run of [1, 2]) {
      const out = await runFlow(env);
      const flow = await readFlow();
      assert.equal(out.code, 0, `run ${run}: ${statuses.join(",")}\n${flow}\n${out.stdout}`);
    }
    assert.deepEqual(statuses, [201, 200, 200, 200, 201, 200, 200, 200]);
  });
});
