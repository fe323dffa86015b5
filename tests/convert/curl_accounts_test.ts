/**
 * `convertCurl`: a README signs a user up, logs in with that name and
 * creates with `-u name:password`. Sent as written, a second run on the same
 * instance is refused at the sign-up (the name is taken: REST-auth's 400,
 * auth-example's 409). The account a sign-up creates (a POST sending a
 * password beside a user name or an address, which a later command sends
 * again with that password, or whose pasted answer is a 201) is the run's own
 * now: `ann-${RUN_ID}`, `ann-${RUN_ID}@example.com`, wherever the commands
 * send it. Run twice against one server started here that refuses a
 * duplicate account.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const JSON_TYPE = `-H "Content-Type: application/json"`;
const DOCS = [
  "Sign up:",
  `curl -X POST ${JSON_TYPE} -d '{"username":"ann","email":"ann@example.com","password":"pw-terrible"}' http://HOST/api/signup`,
  "Log in:",
  `curl --request POST ${JSON_TYPE} --data '{"username":"ann","password":"pw-terrible"}' http://HOST/api/login`,
  "Make a note and read the profile:",
  `curl -u ann:pw-terrible -X POST ${JSON_TYPE} -d '{"title":"first"}' http://HOST/api/notes`,
  "curl -u ann:pw-terrible http://HOST/api/users/ann",
  "",
].join("\n");

Deno.test("the account a sign-up creates is the run's own wherever it is sent", () => {
  const { yaml, summary } = convertCurl(DOCS);
  const why = `${yaml}\n${summary.notes.join("\n")}`;
  assert.match(yaml, /account_name: ann-\$\{RUN_ID\}/, why);
  assert.match(yaml, /account_email: ann-\$\{RUN_ID\}@example\.com/, why);
  assert.equal(yaml.match(/\$\{vars\.account_name\}/g)?.length, 5, why);
  assert.ok(!yaml.includes("pw-terrible"), why);
  assert.equal(summary.notes.filter((n) => n.includes("run's own")).length, 1, why);
});

Deno.test("a login alone, and a name sent with another password, keep the name as written", () => {
  const login =
    `curl -X POST ${JSON_TYPE} -d '{"username":"ann","password":"pw-1"}' http://a.test/login`;
  assert.doesNotMatch(convertCurl(`${login}\ncurl http://a.test/users/ann\n`).yaml, /RUN_ID/);
  const other = login.replace("pw-1", "pw-2");
  assert.doesNotMatch(convertCurl(`${login}\n${other}\n`).yaml, /RUN_ID/);
});

/** Accounts by name (a duplicate refused with 409, a second address too), each status kept. */
function server(statuses: number[]) {
  const accounts = new Map<string, string>();
  const emails = new Set<string>();
  const answer = (status: number) => {
    statuses.push(status);
    return Response.json({}, { status });
  };
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const body = text ? JSON.parse(text) : {};
    if (path === "/api/signup") {
      if (accounts.has(body.username) || emails.has(body.email)) return answer(409);
      accounts.set(body.username, body.password);
      emails.add(body.email);
      return answer(201);
    }
    if (path === "/api/login") {
      return answer(accounts.get(body.username) === body.password ? 200 : 401);
    }
    const [user, pass] = atob((req.headers.get("authorization") ?? "").slice(6)).split(":");
    if (accounts.get(user) !== pass) return answer(401);
    if (path.startsWith("/api/users/")) return answer(path === `/api/users/${user}` ? 200 : 404);
    return answer(201);
  });
}

Deno.test("run twice on one server: every command accepted both times", async () => {
  const statuses: number[] = [];
  await using s = server(statuses);
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, readFlow }) => {
    const env = Object.fromEntries(convertCurl(DOCS).summary.env.map((n) => [n, "pw-terrible"]));
    for (const run of [1, 2]) {
      const out = await runFlow(env);
      const why = `run ${run}: ${statuses.join(",")}\n${await readFlow()}`;
      assert.equal(out.code, 0, `${why}\n${out.stdout}${out.stderr}`);
    }
    assert.deepEqual(statuses, [201, 200, 201, 200, 201, 200, 201, 200]);
  });
});

/** djoser's sample session: the sign-up and the login send a form, curl's `-d` default. */
const FORM_DOCS = [
  "$ curl -X POST http://HOST/auth/users/ --data 'username=ann&password=alpine12'",
  '{"email": "", "username": "ann", "id":1}',
  "",
  "curl -X POST http://HOST/auth/token/login/ --data 'username=ann&password=alpine12'",
  "",
].join("\n");

Deno.test("a form sign-up (curl's -d, no Content-Type written) is the run's own too", () => {
  const { yaml, summary } = convertCurl(FORM_DOCS);
  const why = `${yaml}\n${summary.notes.join("\n")}`;
  assert.match(yaml, /account_name: ann-\$\{RUN_ID\}/, why);
  assert.equal(yaml.match(/username: \$\{vars\.account_name\}/g)?.length, 2, why);
});

Deno.test("run twice on one server: a form sign-up and its login accepted both times", async () => {
  const taken = new Set<string>();
  const statuses: number[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    const name = form.get("username") ?? "";
    const signUp = new URL(req.url).pathname === "/auth/users/";
    const status = signUp ? (taken.has(name) ? 400 : 201) : (taken.has(name) ? 200 : 400);
    if (signUp) taken.add(name);
    statuses.push(status);
    return Response.json({ auth_token: "b704c9fc3655635646356ac2950269f352ea1139" }, { status });
  });
  const docs = FORM_DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    for (const run of [1, 2]) {
      const out = await runFlow({ LOGIN_PASSWORD: "pw" });
      assert.equal(out.code, 0, `run ${run}: ${statuses.join(",")}\n${out.stdout}${out.stderr}`);
    }
    assert.deepEqual(statuses, [201, 200, 201, 200]);
  });
});

Deno.test("an OAuth password grant is a login, never a sign-up", () => {
  const grant =
    "curl -X POST http://a.test/oauth/token -d 'grant_type=password&username=admin&password=pw-1'";
  const { yaml } = convertCurl(`${grant}\ncurl -u admin:pw-1 http://a.test/userinfo\n`);
  assert.doesNotMatch(yaml, /RUN_ID/, yaml);
});
