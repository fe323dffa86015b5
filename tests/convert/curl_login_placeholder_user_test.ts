/**
 * `convertCurl`: a login whose user name the docs wrote as a placeholder. A database's JWT
 * page logs in with `{"operation": "create_authentication_tokens", "username": "username",
 * "password": "password"}`: the password became `LOGIN_PASSWORD`, but the user name was sent
 * as the word `username`, so the login was refused (401) for every reader whose account has
 * another name, and each command after it with the token it hands out. A user name beside a
 * credential, written as the name of what goes there (the field's own name, `username`, `email`,
 * `<username>`, `YOUR_USERNAME`, `your-email`), is a variable to set, in a JSON or a form
 * body however curl is told to send it, and in `-u username:password`; a real name is sent
 * as written, and so is the name of an account the commands create (the run's own).
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const JSON_LOGIN = (user: string, key = "username") =>
  `curl --location --request POST 'http://HOST/' \\
--header 'Content-Type: application/json' \\
--data-raw '{
    "operation": "create_authentication_tokens",
    "${key}": "${user}",
    "password": "password"
}'`;

/** Each way a page sends the login: the option, the body's spelling, the placeholder. */
const LOGINS: Record<string, { command: string; variable: string }> = {
  "JSON, --data-raw, the key's own name": { command: JSON_LOGIN("username"), variable: "USERNAME" },
  "JSON, -d, <username>": {
    command:
      `curl -X POST http://HOST/ -H 'Content-Type: application/json' -d '{"username":"<username>","password":"password"}'`,
    variable: "USERNAME",
  },
  "JSON, --json, an e-mail key named email": {
    command: `curl http://HOST/ --json '{"email": "email", "password": "password"}'`,
    variable: "EMAIL",
  },
  "JSON, --data-binary, user_name: YOUR_USERNAME": {
    command:
      `curl http://HOST/ -H "Content-Type: application/json" --data-binary "{\\"user_name\\": \\"YOUR_USERNAME\\", \\"password\\": \\"password\\"}"`,
    variable: "USERNAME",
  },
  "form, -d, login=login": {
    command: `curl http://HOST/ -d 'login=login&password=password'`,
    variable: "USERNAME",
  },
  "form, --data-urlencode pairs, user=your-email": {
    command:
      `curl http://HOST/ --data-urlencode 'user=your-email' --data-urlencode 'password=password'`,
    variable: "USERNAME",
  },
};

Deno.test("a login's placeholder user name is a variable to set beside its password", () => {
  for (const [how, { command, variable }] of Object.entries(LOGINS)) {
    const { yaml, summary } = convertCurl(`${command.replaceAll("HOST", "a.test")}\n`);
    const name = `LOGIN_${variable}`;
    assert.ok(summary.env.includes(name), `${how}: ${summary.env}\n${yaml}`);
    assert.ok(summary.env.some((e) => /PASSWORD/.test(e)), `${how}: ${summary.env}`);
    assert.match(yaml, new RegExp(`\\$\\{ENV\\.${name}\\}`), `${how}\n${yaml}`);
    assert.match(yaml, new RegExp(`${name} +the user name the login sends, written as`), yaml);
  }
});

Deno.test("-u with the word username is a variable to set", () => {
  for (const user of ["username", "email", "your_username", "<user>"]) {
    const { yaml, summary } = convertCurl(`curl -u ${user}:password http://a.test/api/me\n`);
    assert.deepEqual(summary.env, ["BASIC_USER", "BASIC_PASSWORD"], `${user}\n${yaml}`);
  }
});

Deno.test("a real user name, or an account the commands create, is sent as written", () => {
  for (const user of ["admin", "ann.lee", "alice"]) {
    const { yaml, summary } = convertCurl(`${JSON_LOGIN(user).replaceAll("HOST", "a.test")}\n`);
    assert.ok(!summary.env.some((e) => /USER|EMAIL/.test(e)), `${user}: ${summary.env}`);
    assert.ok(yaml.includes(`username: ${user}`), yaml);
  }
  const signUp = convertCurl(
    `curl -X POST http://a.test/users -H 'Content-Type: application/json' -d '{"username":"username","password":"password"}'
curl -X POST http://a.test/login -H 'Content-Type: application/json' -d '{"username":"username","password":"password"}'
`,
  );
  assert.ok(!signUp.summary.env.some((e) => /USERNAME/.test(e)), signUp.yaml);
  // A field that names no one is no user name: `"name": "name"` in a login stays as written.
  const other = convertCurl(
    `curl http://a.test/ --json '{"operation": "operation", "username": "admin", "password": "password"}'\n`,
  );
  assert.ok(other.yaml.includes("operation: operation"), other.yaml);
});

Deno.test("run against a server: the login sends the reader's account and its token is used", async () => {
  const tokens = new Set<string>();
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    const auth = req.headers.get("authorization");
    if (auth) {
      seen.push(tokens.has(auth.replace("Bearer ", "")) ? "token" : "bad");
      return tokens.has(auth.replace("Bearer ", ""))
        ? Response.json({ ok: true })
        : Response.json({ error: "invalid token" }, { status: 401 });
    }
    const sent = text.startsWith("{")
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    const user = sent.username ?? sent.email ?? sent.user_name ?? sent.login ?? sent.user;
    seen.push(`${user}:${sent.password}`);
    if (user !== "hdb_admin" || sent.password !== "Adm1n-pw") {
      return Response.json({ error: "invalid credentials" }, { status: 401 });
    }
    const token = crypto.randomUUID();
    tokens.add(token);
    return Response.json({ operation_token: token });
  });
  for (const [how, { command, variable }] of Object.entries(LOGINS)) {
    seen.length = 0;
    const host = `127.0.0.1:${s.addr.port}`;
    const use =
      `curl --location --request POST 'http://${host}/' --header 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VybmFtZSJ9.c2lnbmF0dXJlLW9mLXRoZS1kb2NzLXRva2Vu' --data-raw '{"operation":"describe_all"}'`;
    const answer =
      `{"operation_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VybmFtZSJ9.c2lnbmF0dXJlLW9mLXRoZS1kb2NzLXRva2Vu"}`;
    const docs = `${
      command.replaceAll("HOST", host)
    }\n\nAn example expected return object is:\n\n${answer}\n\n${use}\n`;
    await withCurlFlow(docs, async ({ runFlow, converted }) => {
      const name = `LOGIN_${variable}`;
      const password = converted.stderr.match(/[A-Z_]*PASSWORD/)?.[0] ?? "LOGIN_PASSWORD";
      const run = await runFlow({ [name]: "hdb_admin", [password]: "Adm1n-pw" });
      assert.equal(run.code, 0, `${how}: ${converted.stderr}${run.stdout}${run.stderr}`);
    });
    assert.deepEqual(seen, ["hdb_admin:Adm1n-pw", "token"], how);
  }
});

Deno.test("-u user:password is the account named user, sent as written", () => {
  const { yaml, summary } = convertCurl("curl -u user:password http://a.test/basic\n");
  assert.ok(!summary.env.includes("BASIC_USER"), `${summary.env}\n${yaml}`);
  assert.ok(yaml.includes("username: user"), yaml);
});

Deno.test("a -u user name the URL's own path names is the server's, sent as written", () => {
  // httpbin's `/basic-auth/user/passwd` checks the user its path names: `user` is no placeholder.
  const { yaml, summary } = convertCurl(
    "curl -u user:passwd http://a.test/basic-auth/user/passwd\n",
  );
  assert.ok(!summary.env.includes("BASIC_USER"), `${summary.env}\n${yaml}`);
  assert.ok(yaml.includes("username: user"), yaml);
});
