/**
 * `convertCurl`: a README logs in and then sends the same credentials again
 * (`-u admin:pw`, `--user`, a Basic header written out, a second JSON login).
 * That is a sign-in twice, not a sign-up: the account exists on the server and
 * nothing in the text creates it. The name was made the run's own
 * (`admin-${RUN_ID}`), so the login was refused on a real server. A name is
 * made unique only when the text creates the account: a pasted 201, or a POST
 * to an accounts collection (`/users`, `/register`, `/signup`) signed in with
 * afterwards. Run against a server started here that knows one fixed account.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const JSON_TYPE = `-H "Content-Type: application/json"`;
const LOGIN =
  `curl -X POST ${JSON_TYPE} -d '{"username":"admin","password":"s3cret-pw"}' http://HOST/api/login`;
const BASIC = btoa("admin:s3cret-pw");

/** Each way a later command sends the same credentials again. */
const AGAIN: Record<string, string> = {
  "-u": "curl -u admin:s3cret-pw http://HOST/api/me",
  "--user": "curl --user 'admin:s3cret-pw' http://HOST/api/me",
  "a Basic header": `curl -H "Authorization: Basic ${BASIC}" http://HOST/api/me`,
  "a JSON login body":
    `curl -X POST ${JSON_TYPE} --data '{"username":"admin","password":"s3cret-pw"}' http://HOST/api/session`,
};

const docs = (again: string) => ["Log in:", LOGIN, "Then:", again, ""].join("\n");

/** One fixed account: a login by JSON body or by Basic auth, anything else refused with 401. */
function server(statuses: number[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    let ok: boolean;
    if (text) {
      const body = JSON.parse(text);
      ok = body.username === "admin" && body.password === "s3cret-pw";
    } else {
      ok = req.headers.get("authorization") === `Basic ${BASIC}`;
    }
    statuses.push(ok ? 200 : 401);
    return Response.json({ ok }, { status: ok ? 200 : 401 });
  });
}

for (const [how, again] of Object.entries(AGAIN)) {
  Deno.test(`a login and the same credentials again by ${how}: the name is sent as written`, async () => {
    const { yaml } = convertCurl(docs(again));
    assert.doesNotMatch(yaml, /RUN_ID/, yaml);
    const statuses: number[] = [];
    await using s = server(statuses);
    const text = docs(again).replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
    await withCurlFlow(text, async ({ runFlow, readFlow, converted }) => {
      const env = Object.fromEntries(
        convertCurl(text).summary.env.map((n) => [n, "s3cret-pw"]),
      );
      const out = await runFlow(env);
      const why = `${statuses.join(",")}\n${converted.stderr}\n${await readFlow()}`;
      assert.equal(out.code, 0, `${why}\n${out.stdout}${out.stderr}`);
      assert.deepEqual(statuses, [200, 200], why);
    });
  });
}

Deno.test("a POST to an accounts collection signed in with afterwards is still a sign-up", () => {
  for (const path of ["/api/users", "/register", "/auth/sign-up", "/v1/accounts/"]) {
    const signUp = LOGIN.replace("/api/login", path).replaceAll("HOST", "a.test");
    for (const again of Object.values(AGAIN).slice(0, 2)) {
      const { yaml } = convertCurl(`${signUp}\n${again.replaceAll("HOST", "a.test")}\n`);
      assert.match(yaml, /account_name: admin-\$\{RUN_ID\}/, `${path}\n${yaml}`);
    }
  }
});

Deno.test("a login under an accounts path (/users/sign_in, /api/users/login) is no sign-up", () => {
  for (const path of ["/users/sign_in", "/api/users/login", "/accounts/session"]) {
    const login = LOGIN.replace("/api/login", path).replaceAll("HOST", "a.test");
    const { yaml } = convertCurl(`${login}\n${AGAIN["-u"].replaceAll("HOST", "a.test")}\n`);
    assert.doesNotMatch(yaml, /RUN_ID/, `${path}\n${yaml}`);
  }
});
