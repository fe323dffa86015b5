/**
 * `convertCurl`: a token a README sends back in a body after a login whose answer it does
 * not print. A Fastify JWT README logs in, then refreshes with
 * `-d '{"refreshToken":"<refreshToken>"}'`: the field's name made it a secret to set
 * (`LOGIN_REFRESH_TOKEN`), which no new user has before the login runs, so the refresh failed
 * with 401. The placeholder is what the login answers: captured from the login's answer by
 * the member named as the placeholder, in any spelling, in a JSON or a form body. Run
 * against a server started here that hands out fresh tokens at each login.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const LOGIN = `curl -X POST http://HOST/auth/login -H "Content-Type: application/json" \\
  -d '{"email":"ann@example.com","password":"s3cret-pw"}'`;

/** Each way docs send the refresh token back, and the member the server answers it under. */
const REFRESHES: Record<string, { command: string; member: string }> = {
  "JSON, <camelCase>": {
    command:
      `curl -X POST http://HOST/auth/refresh -H "Content-Type: application/json" -d '{"refreshToken":"<refreshToken>"}'`,
    member: "refreshToken",
  },
  "JSON, {{snake_case}}, answered in camelCase": {
    command:
      `curl -X POST http://HOST/auth/refresh -H "Content-Type: application/json" -d '{"refresh_token":"{{refresh_token}}"}'`,
    member: "refreshToken",
  },
  "form, OAuth's grant, YOUR_REFRESH_TOKEN": {
    command:
      `curl -X POST http://HOST/auth/refresh -d 'grant_type=refresh_token&refresh_token=YOUR_REFRESH_TOKEN'`,
    member: "refresh_token",
  },
};

const docs = (refresh: string, host: string) => `${LOGIN}\n\n${refresh}\n`.replaceAll("HOST", host);

Deno.test("a token placeholder in a body after a login is the login's answer, not a variable", () => {
  for (const [how, { command }] of Object.entries(REFRESHES)) {
    const { yaml, summary } = convertCurl(docs(command, "a.test"));
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], `${how}: ${yaml}`);
    assert.match(yaml, /refresh_?token: \$\{steps\.login\.capture\.refresh_?token\}/i, how);
    assert.match(yaml, /capture:\n\s+refresh_?token: \{ regex: /i, how);
  }
});

Deno.test("a body placeholder that names no token, or a printed answer, is left as before", () => {
  const name = convertCurl(docs(
    `curl -X POST http://HOST/notes -H "Content-Type: application/json" -d '{"title":"<title>"}'`,
    "a.test",
  ));
  assert.doesNotMatch(name.yaml, /capture\.title/);
  const noLogin = convertCurl(REFRESHES["JSON, <camelCase>"].command.replaceAll("HOST", "a.test"));
  assert.match(noLogin.summary.env.join(), /REFRESH_TOKEN/);
});

Deno.test("run against a server: each refresh sends the token its login handed out", async () => {
  const issued = new Set<string>();
  let refreshed = 0;
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const member = req.headers.get("x-member") ?? "refreshToken";
    if (path === "/auth/login") {
      const token = `r-${crypto.randomUUID()}`;
      issued.add(token);
      return Response.json({ accessToken: `a-${crypto.randomUUID()}`, [member]: token });
    }
    const sent = text.startsWith("{")
      ? Object.values(JSON.parse(text))[0] as string
      : new URLSearchParams(text).get("refresh_token");
    if (!issued.has(sent ?? "")) return Response.json({ error: "bad token" }, { status: 401 });
    refreshed++;
    return Response.json({ accessToken: "a-new" });
  });
  for (const [how, { command, member }] of Object.entries(REFRESHES)) {
    const text = docs(command, `127.0.0.1:${s.addr.port}`).replace(
      '-H "Content-Type: application/json" \\',
      `-H "Content-Type: application/json" -H "X-Member: ${member}" \\`,
    );
    await withCurlFlow(text, async ({ runFlow }) => {
      const run = await runFlow({ LOGIN_PASSWORD: "s3cret-pw" });
      assert.equal(run.code, 0, `${how}: ${run.stdout}${run.stderr}`);
    });
  }
  assert.equal(refreshed, 3);
});

Deno.test("run against a server: a body's `<token>` is the login's token, however the answer names it", async () => {
  const issued = new Set<string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    if (new URL(req.url).pathname === "/auth/login") {
      const token = `t-${crypto.randomUUID()}`;
      issued.add(token);
      return Response.json({ user: { id: 1 }, accessToken: token });
    }
    const ok = issued.has(JSON.parse(text).token);
    return Response.json({ valid: ok }, { status: ok ? 200 : 401 });
  });
  const verify =
    `curl -X POST http://HOST/auth/verify -H "Content-Type: application/json" -d '{"token":"<token>"}'`;
  await withCurlFlow(docs(verify, `127.0.0.1:${s.addr.port}`), async ({ runFlow, converted }) => {
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
    const run = await runFlow({ LOGIN_PASSWORD: "s3cret-pw" });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});
