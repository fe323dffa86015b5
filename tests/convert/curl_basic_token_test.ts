/**
 * `convertCurl`: docs that trade `-u user:password` for a token, then send
 * the token as `-u`'s user name (`-u TOKEN:x`: the server reads the token,
 * the password is "arbitrarily set"), with each answer pasted under its
 * command; and a `-u` whose pasted answer is a 401, to show a wrong password
 * refused. The token was asked as `RECORDED_SECRET` (nobody has it before the
 * run), the token's `x` as `BASIC_PASSWORD_2`, the refused password as
 * `BASIC_PASSWORD`. The token is the earlier answer's capture now, the
 * password beside a captured token is sent as written, and so is a password
 * the docs show refused: it is no credential of the user's, and the refusal
 * is the answer the docs print. Run against a server started here that hands
 * out a fresh token each time and refuses any other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS_TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6N30.c2lnbmVkLWJ5LXRoZS1kb2Nz";
const JSON_HEAD = "HTTP/1.1 200 OK\nContent-Type: application/json\n";

/** A README's session: sign up, a resource with the password, a wrong one, a token, the token. */
const DOCS = [
  "Make an account:",
  "",
  `$ curl -i -X POST -H "Content-Type: application/json" -d '{"username":"ann","password":"s3cret-pw"}' http://HOST/v1/accounts`,
  "HTTP/1.1 201 CREATED",
  "Content-Type: application/json",
  "",
  '{"username": "ann"}',
  "",
  "Then read with it:",
  "",
  "$ curl -u ann:s3cret-pw -i http://HOST/v1/secret",
  JSON_HEAD,
  '{"data": "hi ann"}',
  "",
  "A wrong password is refused:",
  "",
  "$ curl -u ann:guess -i http://HOST/v1/secret",
  "HTTP/1.1 401 UNAUTHORIZED",
  'WWW-Authenticate: Basic realm="docs"',
  "",
  "Get a token:",
  "",
  "$ curl -u ann:s3cret-pw -i http://HOST/v1/token",
  JSON_HEAD,
  `{"token": "${DOCS_TOKEN}", "duration": 600}`,
  "",
  "Send it as the user name; the password is not read:",
  "",
  `$ curl -u ${DOCS_TOKEN}:x -i http://HOST/v1/secret`,
  JSON_HEAD,
  '{"data": "hi ann"}',
  "",
].join("\n");

Deno.test("a token sent as -u's user is the earlier answer's, and only the account's password is asked", () => {
  const { yaml, summary } = convertCurl(DOCS);
  const why = `${yaml}\n${summary.notes.join("\n")}`;
  assert.equal(summary.steps, 5, why);
  assert.deepEqual(summary.env, ["CREATE_ACCOUNT_PASSWORD"], why);
  assert.ok(!yaml.includes(DOCS_TOKEN) && !yaml.includes("s3cret-pw"), why);
  assert.match(yaml, /username: \$\{steps\.get_token\.capture\.token\}/, why);
  assert.match(yaml, /password: \$\{ENV\.BASIC_PASSWORD(?:_\d)?:-x\}\n/, why);
  assert.match(yaml, /password: \$\{ENV\.BASIC_PASSWORD(?:_\d)?:-guess\}\n/, why);
});

Deno.test("a -u password with no refusal pasted under it is still asked", () => {
  const { summary } = convertCurl("curl -u ann:guess http://localhost:7000/v1/secret\n");
  assert.deepEqual(summary.env, ["BASIC_PASSWORD"]);
});

/** Accounts, a token per `/v1/token` call (the last one good), Basic by password or by token. */
function server(seen: string[]) {
  const accounts = new Map<string, string>();
  let current = "";
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const [user, pass] = atob((req.headers.get("authorization") ?? "").slice(6)).split(":");
    const byPassword = user !== undefined && accounts.get(user) === pass;
    seen.push(`${req.method} ${path} ${user ?? "-"}`);
    if (req.method === "POST" && path === "/v1/accounts") {
      const body = JSON.parse(text);
      accounts.set(body.username, body.password);
      return Response.json({ username: body.username }, { status: 201 });
    }
    if (!byPassword && !(current !== "" && user === current)) {
      return new Response("no", { status: 401 });
    }
    if (path === "/v1/token") {
      current = `${crypto.randomUUID()}.${crypto.randomUUID()}`;
      return Response.json({ token: current, duration: 600 });
    }
    return Response.json({ data: "hi" });
  });
}

Deno.test("run against a server: the token its own /token answered, the documented 401", async () => {
  const seen: string[] = [];
  await using s = server(seen);
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, readFlow }) => {
    const { summary } = convertCurl(DOCS);
    const env = Object.fromEntries(summary.env.map((name) => [name, "s3cret-pw"]));
    const run = await runFlow(env);
    const flow = await readFlow();
    const why = `${flow}\n${run.stdout}${run.stderr}\n${seen.join("\n")}`;
    assert.equal(run.code, 0, why);
    assert.equal(seen.length, 5, why);
  });
});
