/**
 * `const loginRequest = { url, method, body: { mode: 'raw', raw: JSON.stringify(…), options:
 * { raw: { language: 'json' } } } }; pm.sendRequest(loginRequest, …)`: a request kept in a
 * variable and sent before each request that needs a fresh token, as a tester's ServeRest
 * collection does. Postman sends the raw body with the Content-Type its language names
 * (`application/json`), as it does for a request's own raw body; the converter read the
 * body's text but not its `options`, so the side request went out as `text/plain`, and a
 * server that parses JSON by its type (Express's `json()`) answered "email is required".
 * Now the language is kept, for each language Postman names and for none (`text/plain`).
 * The server records each request's Content-Type; Newman's and the flow's must be equal.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A request whose pre-request script sends a login kept in a const, its body in `language`. */
function item(language: string | undefined) {
  const tag = language ?? "none";
  const options = language === undefined ? "" : `, options: { raw: { language: '${language}' } }`;
  const pre = [
    "const loginRequest = {",
    `  url: pm.environment.get('baseURL') + '/login/${tag}',`,
    "  method: 'POST',",
    "  body: {",
    "    mode: 'raw',",
    "    raw: JSON.stringify({ email: 'ann@qa.com', password: 'teste' })" + options,
    "  }",
    "};",
    "pm.sendRequest(loginRequest, function (err, response) {",
    "  pm.environment.set('accessToken', response.json().token);",
    "});",
  ];
  return {
    name: `After ${tag}`,
    event: [
      { listen: "prerequest", script: { exec: pre } },
      {
        listen: "test",
        script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
      },
    ],
    request: {
      method: "GET",
      url: `{{baseURL}}/after/${tag}`,
      header: [{ key: "Authorization", value: "Bearer {{accessToken}}" }],
    },
  };
}

const LANGUAGES = ["json", "xml", "text", "javascript", "html", undefined];

Deno.test("postman sendRequest of a request kept in a variable: its raw body's language is its Content-Type, as Newman sends it", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.body?.cancel();
    seen.push(`${req.method} ${path} ${req.headers.get("content-type") ?? "-"}`);
    return Response.json({ token: "t-1" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({ info: { name: "Languages", schema: V21 }, item: LANGUAGES.map(item) }),
    );
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const counts = await runNewman(file, { baseURL: origin });
    assert.equal(counts.failedAssertions, 0);
    const byNewman = seen.splice(0);
    assert.equal(byNewman.length, 12, byNewman.join("\n"));
    assert.ok(byNewman.includes("POST /login/json application/json"), byNewman.join("\n"));

    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
    const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, byNewman);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
