/**
 * `const { data: { accessToken } } = pm.response.json(); pm.environment.set("t", accessToken)`:
 * a nested destructuring was left a comment, so the token was never captured and every later
 * request sent `{{t}}` (seen in a course's own collection, where each login and each create
 * names its value this way). Now each name at any depth reads its member's path. A small server
 * answers a login with a nested token and a protected read that wants it.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const test = (...exec: string[]) => [{ listen: "test", script: { exec } }];

Deno.test("postman nested destructure: a token named two levels down is captured and sent, as Newman does", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/login") {
      return Response.json({
        status: "success",
        data: { accessToken: "tok-7", user: { id: "u-1" } },
      });
    }
    const ok = req.headers.get("authorization") === "Bearer tok-7";
    return Response.json({ ok }, { status: ok ? 200 : 401 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Nested", schema: V21 },
      item: [
        {
          name: "Login",
          event: test(
            "const { data: { accessToken, user: { id: userId } } } = pm.response.json();",
            "pm.environment.set('token', accessToken);",
            "pm.environment.set('userId', userId);",
          ),
          request: { method: "POST", url: `${base}/login`, header: [] },
        },
        {
          name: "Read",
          event: test("pm.test('ok', () => pm.response.to.have.status(200));"),
          request: {
            method: "GET",
            url: `${base}/me/{{userId}}`,
            header: [{ key: "Authorization", value: "Bearer {{token}}" }],
          },
        },
      ],
    }));
    assert.deepEqual(summary.broken ?? [], []);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.flows[0].steps[1].status, "passed");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
