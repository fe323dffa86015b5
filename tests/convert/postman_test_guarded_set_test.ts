/**
 * `pm.test("tokens", () => { pm.expect(json.accessToken).to.be.a("string");
 * pm.environment.set("accessToken", json.accessToken); })` on a login that fails (a public
 * Express API's own Newman suite logs in with a user its sign-up did not make): the failed
 * `expect` throws out of the test's function, so Newman does not run the set and the next
 * requests send the token an earlier folder's login kept. The flow captured the token
 * unconditionally: the capture failed, and every step reading it was an error, not sent (5 of
 * Newman's 21 requests). A set after a test's checks now holds only when they held, the earlier
 * value otherwise; reading that value merges the folders into one flow, as Newman runs them.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });

Deno.test("postman guarded set: a set after a test's checks is captured when they hold", () => {
  const t = translateScript(
    [
      "const json = pm.response.json();",
      "pm.test('tokens', () => {",
      "  pm.expect(json.token).to.be.a('string');",
      "  pm.environment.set('token', json.token);",
      "});",
      "pm.environment.set('seen', json.id);",
    ].join("\n"),
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  const token = t.captures.find((c) => c.name === "token");
  assert.deepEqual(token?.when, [{ path: "$.json.token", op: "type", value: "string" }]);
  // Outside the test nothing throws before it: a plain capture.
  assert.equal(t.captures.find((c) => c.name === "seen")?.when, undefined);
});

/** A login per folder, the second with a wrong password, then a read with the kept token. */
function collection(base: string) {
  const login = (name: string, password: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          "pm.test('token', function () {",
          "  const json = pm.response.json();",
          "  pm.expect(json.token).to.be.a('string');",
          "  pm.environment.set('token', json.token);",
          "});",
        ],
      },
    }],
    request: {
      method: "POST",
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw: JSON.stringify({ password }) },
      url: "{{base}}/login",
    },
  });
  const me = {
    name: "Me",
    request: {
      method: "GET",
      header: [{ key: "Authorization", value: "Bearer {{token}}" }],
      url: "{{base}}/me",
    },
  };
  return {
    info: { name: "Guarded", schema: V21 },
    variable: [{ key: "base", value: base }],
    item: [
      { name: "First", item: [login("Login", "right"), me] },
      { name: "Second", item: [login("Login again", "wrong"), me] },
    ],
  };
}

Deno.test("postman guarded set: a failed login keeps the earlier folder's token, as Newman does", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      seen.push(req.headers.get("authorization") ?? "");
      return Response.json({});
    }
    const { password } = await req.json();
    return password === "right"
      ? Response.json({ token: "t-1" })
      : Response.json({ error: "no" }, { status: 401 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const c = collection(`http://127.0.0.1:${server.addr.port}`);
    const { files } = convertPostman(JSON.stringify(c));
    assert.equal(files.filter((f) => f.path.endsWith(".yaml")).length, 1);
    const report = await runCollection(c, dir);
    const steps = report.flows[0].steps.map((s: { status: string }) => s.status);
    assert.deepEqual(steps, ["passed", "passed", "failed", "passed"]);
    assert.deepEqual(seen, ["Bearer t-1", "Bearer t-1"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
