/**
 * `pm.environment.set('longAddress', 'A'.repeat(1000))` in a pre-request script, the body sending
 * `{{longAddress}}`: a boundary case of a course's API-testing collection. The value was left
 * unknown, so the request sent `{{longAddress}}` as written where Newman sends a thousand `A`s. A
 * text method on a literal text with literal arguments (`repeat`, `toUpperCase`, `padStart`, …)
 * now has its value here, as JavaScript gives it; a server the test starts checks what it got.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman literal text: 'A'.repeat(1000) set before the request is sent as Newman sends it", async () => {
  const got: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    got.push(body.shipping_address, body.code);
    const ok = body.shipping_address === "A".repeat(1000) && body.code === "00042";
    return Response.json({ ok }, { status: ok ? 200 : 400 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Profile", schema: V21 },
      item: [{
        name: "Long address",
        event: [
          {
            listen: "prerequest",
            script: {
              exec: [
                "pm.environment.set('longAddress', 'A'.repeat(1000));",
                "pm.environment.set('code', '42'.padStart(5, '0'));",
              ],
            },
          },
          {
            listen: "test",
            script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
          },
        ],
        request: {
          method: "PUT",
          url: `http://127.0.0.1:${server.addr.port}/api/users/me`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"shipping_address":"{{longAddress}}","code":"{{code}}"}' },
        },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated[,:]/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(got, ["A".repeat(1000), "00042"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
