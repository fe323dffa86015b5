/**
 * `convert curl`: a tutorial (a mock server's login, measured by hand)
 * first logs in with a wrong password to show the refusal, `-d
 * '{"password":"wrong"}'` answered 401, then with the right one. The wrong
 * word was asked as `LOGIN_PASSWORD` and the right one as `LOGIN_PASSWORD_2`:
 * a reader set the first to their password, and the refusal the docs show
 * became a pass, or set it to `wrong` and wondered why a password was asked
 * twice. A password a command sends in its body whose refusal the docs show
 * (a 401 or 403, pasted or stated), and that no command the docs show
 * accepted sends, is no credential of the user's: sent as written unless its
 * variable is set, as `-u`'s is (curl_auth.ts). Every body spelling (JSON,
 * a form, `--data-urlencode`), the refusal pasted or stated; run against a
 * server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The wrong login's body, in each way curl sends a password. */
const WRONG = {
  json: `-H 'Content-Type: application/json' -d '{"password":"nope-1"}'`,
  form: `-d 'password=nope-1'`,
  urlencoded: `--data-urlencode 'password=nope-1'`,
};
/** How the docs show its refusal. */
const REFUSAL = {
  pasted: "HTTP/1.1 401 Unauthorized\n",
  stated: "The server returns 401 Unauthorized.\n",
};

function page(host: string, body: string, refusal: string): string {
  return [
    `$ curl -i -X POST http://${host}/login ${body}`,
    refusal,
    `$ curl -X POST http://${host}/login -H 'Content-Type: application/json' -d '{"password":"right-pw-7"}'`,
    `{"token": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"}`,
    "",
    `$ curl http://${host}/me -H "Authorization: Bearer 0a1b2c3d4e5f60718293a4b5c6d7e8f9"`,
    "",
  ].join("\n");
}

for (const [spelling, body] of Object.entries(WRONG)) {
  for (const [shown, refusal] of Object.entries(REFUSAL)) {
    Deno.test(`${spelling}, refusal ${shown}: the refused password is sent as written`, () => {
      const { yaml, summary } = convertCurl(page("127.0.0.1:3000", body, refusal));
      assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
      assert.doesNotMatch(yaml, /right-pw-7/, yaml);
      assert.match(yaml, /nope-1/, yaml);
    });
  }
}

Deno.test("a password the docs show accepted elsewhere stays asked", () => {
  // The same password refused at a 403 (a role's) and accepted at the login: the user's own.
  const text = [
    "$ curl -i -X POST http://127.0.0.1:3000/admin -d 'password=right-pw-7'",
    "HTTP/1.1 403 Forbidden",
    "",
    "$ curl -i -X POST http://127.0.0.1:3000/login -d 'password=right-pw-7'",
    "HTTP/1.1 200 OK",
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.doesNotMatch(yaml, /right-pw-7/, yaml);
});

Deno.test("run against a server: the refusal and the login as the docs show", async () => {
  let token = "";
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    if (path === "/login") {
      const sent = text.startsWith("{")
        ? JSON.parse(text).password
        : new URLSearchParams(text).get("password");
      if (sent !== "right-pw-7") return new Response("no", { status: 401 });
      token = crypto.randomUUID().replaceAll("-", "");
      return Response.json({ token });
    }
    const ok = token !== "" && req.headers.get("authorization") === `Bearer ${token}`;
    return ok ? Response.json({ me: 1 }) : new Response(null, { status: 401 });
  });
  for (const body of Object.values(WRONG)) {
    for (const refusal of Object.values(REFUSAL)) {
      const docs = page(`127.0.0.1:${s.addr.port}`, body, refusal);
      await withCurlFlow(docs, async ({ runFlow, converted }) => {
        const run = await runFlow({ LOGIN_PASSWORD: "right-pw-7" });
        assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
      });
    }
  }
});
