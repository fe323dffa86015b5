/**
 * A value a pre-request script makes in one folder and a later folder reads: a tester's
 * ServeRest collection registers `name.${n}@qa.com` (`n` from `Math.random()`) in its Users
 * folder, and its Products and Cart folders log in as that e-mail. Newman keeps the variable
 * across folders; each top-level folder became a flow of its own, and flows share no state, so
 * the later folder sent the environment's empty `email` (or `{{email}}` as written without
 * one): the login was refused. Folders were merged only when a later one read an earlier one's
 * capture; a made value is now evidence alike, so the folders from the one that makes it to
 * the one that reads it are one flow, as a capture's are, whether the later folder reads it as
 * `{{email}}` or with `pm.environment.get("email")` (the login a pre-request script sends
 * first). A server registers e-mails and answers the login only for one it registered, and a
 * product only with the token that login gives; Newman and the flow must both pass.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Users registers a made e-mail; Products logs in with it; `how` makes the number. */
function collection(how: string) {
  const made = [
    `const randomNumber = ${how};`,
    "const randomEmail = `name.${randomNumber}@qa.com`;",
    "pm.environment.set('email', randomEmail);",
  ];
  const status = (code: number) => ({
    listen: "test",
    script: { exec: [`pm.test('${code}', () => pm.response.to.have.status(${code}));`] },
  });
  const post = (path: string) => ({
    method: "POST",
    url: `{{baseURL}}/${path}`,
    header: [{ key: "Content-Type", value: "application/json" }],
    body: { mode: "raw", raw: '{ "email": "{{email}}", "password": "teste" }' },
  });
  return {
    info: { name: "Made across folders", schema: V21 },
    item: [
      {
        name: "Users",
        item: [{
          name: "Register User",
          event: [{ listen: "prerequest", script: { exec: made } }, status(201)],
          request: post("usuarios"),
        }],
      },
      {
        name: "Products",
        item: [
          { name: "Login", event: [status(200)], request: post("login") },
          // The login a pre-request script sends first, its e-mail read with a getter.
          {
            name: "Register Product",
            event: [{ listen: "prerequest", script: { exec: SEND_LOGIN } }, status(201)],
            request: {
              method: "POST",
              url: "{{baseURL}}/produtos",
              header: [{ key: "Authorization", value: "{{accessToken}}" }],
            },
          },
        ],
      },
    ],
  };
}

/** A login kept in a const, its e-mail the environment's (ServeRest's testers' form). */
const SEND_LOGIN = [
  "const loginRequest = {",
  "  url: pm.environment.get('baseURL') + '/login',",
  "  method: 'POST',",
  "  body: {",
  "    mode: 'raw',",
  "    raw: JSON.stringify({ email: pm.environment.get('email'), password: 'teste' }),",
  "    options: { raw: { language: 'json' } }",
  "  }",
  "};",
  "pm.sendRequest(loginRequest, function (err, response) {",
  "  pm.environment.set('accessToken', response.json().authorization);",
  "});",
];

const MAKERS = [
  "Math.floor(Math.random() * 9000)",
  "_.random(1000, 9999)",
];

Deno.test("postman: a value a script makes in one folder is the one a later folder sends, as Newman sends it", async () => {
  const registered = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/produtos") {
      const ok = req.headers.get("authorization") === "Bearer t-1";
      return Response.json({ ok }, { status: ok ? 201 : 401 });
    }
    const { email } = await req.json();
    if (path === "/usuarios") {
      const fresh = /^name\.\d+@qa\.com$/.test(email) && !registered.has(email);
      if (fresh) registered.add(email);
      return Response.json({ ok: fresh }, { status: fresh ? 201 : 400 });
    }
    const known = registered.has(email);
    const body = known
      ? { authorization: "Bearer t-1" }
      : { message: "Email e/ou senha inválidos" };
    return Response.json(body, { status: known ? 200 : 401 });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const how of MAKERS) {
      // With an environment that holds the variable empty, as the collection's own does, and without.
      for (const env of [{ email: "" }, {}] as Record<string, string>[]) {
        const file = `${dir}/c.json`;
        await Deno.writeTextFile(file, JSON.stringify(collection(how)));
        const values = Object.entries({ baseURL: origin, ...env })
          .map(([key, value]) => ({ key, value, enabled: true }));
        await Deno.writeTextFile(`${dir}/env.json`, JSON.stringify({ name: "local", values }));
        const counts = await runNewman(file, { baseURL: origin, ...env });
        assert.equal(counts.failedAssertions, 0, how);
        const out = `${dir}/flows-${registered.size}`;
        const converted = await runCli(
          ["convert", "postman", file, "-e", `${dir}/env.json`, "-o", out],
        );
        assert.equal(converted.code, 0, converted.stderr);
        const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
        const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
        assert.equal(run.code, 0, how + JSON.stringify(env) + run.stdout + run.stderr);
      }
    }
    assert.equal(registered.size, 8);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
