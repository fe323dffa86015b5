/**
 * A test script declares `const baseUrl = pm.environment.get('baseUrl')` and `const token = …`,
 * then `pm.sendRequest` whose callback sends a second request built from those names, as a
 * course's API-testing collection reads a profile back after a second PUT. The callback was
 * translated alone, without the names its closure holds, so the second request stayed a comment
 * and was never sent: Newman's order was lost from there. A callback's body is now translated
 * after the declarations before the call that it reads; a server the test starts checks the
 * order and what each request carried.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman callback closure: a nested pm.sendRequest reads the names declared before the call", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname} ${req.headers.get("authorization")}`);
    return Response.json({ name: "Seed" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const script = [
      "pm.test('first', () => pm.response.to.have.status(200));",
      "const baseUrl = pm.environment.get('baseUrl');",
      "const token = pm.environment.get('token');",
      "pm.sendRequest({ url: baseUrl + '/me', method: 'PUT', header: { 'Authorization': 'Bearer ' + token } }, function (err, res) {",
      "  pm.test('second PUT', () => pm.expect(res.code).to.eql(200));",
      "  pm.sendRequest({ url: baseUrl + '/me', method: 'GET', header: { 'Authorization': 'Bearer ' + token } }, function (err, getRes) {",
      "    pm.test('read back', () => pm.expect(getRes.json().name).to.eql('Seed'));",
      "  });",
      "});",
    ];
    const { files } = convertPostman(
      JSON.stringify({
        info: { name: "Profile", schema: V21 },
        item: [{
          name: "Update",
          event: [{ listen: "test", script: { exec: script } }],
          request: { method: "PUT", url: "{{baseUrl}}/me" },
        }],
      }),
      JSON.stringify({
        name: "Local",
        values: [
          { key: "baseUrl", value: base, enabled: true },
          { key: "token", value: "t-1", enabled: true },
        ],
      }),
    );
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated[,:]/, flow.text);
    const { run } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, ["PUT /me null", "PUT /me Bearer t-1", "GET /me Bearer t-1"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
