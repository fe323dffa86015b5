/**
 * A JSON Web Token the collection gives is a credential by what it is, wherever it is sent. A
 * collection variable holding a refresh token (`refreshToken` = `eyJ….eyJ….…`) sent in a body field
 * whose name is no credential's (`{"refreshToken": "{{refreshToken}}"}`), or a token written out in
 * an ordinary header, was kept as a flow var or a literal; the CLI writes every file through its
 * redactor, which masks a token of that shape, so the flow it wrote held `refreshToken: ***` and
 * sent the three characters `***`, with nothing asked for. Each is now read from a variable the
 * summary asks for, and the flow sends the token given there.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-");
const REFRESH = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub: "ann", typ: "refresh" })}.` +
  "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const DEVICE = `${b64({ alg: "HS256" })}.${b64({ device: "d-7" })}.q2Xw9Lk0VbN3mP8rT6zYc1`;

Deno.test("convert postman: a JWT the collection gives is asked for, never written as ***", async () => {
  const seen: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push([req.headers.get("x-device"), await req.json()]);
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = {
      info: { name: "Refresh", schema: V21 },
      variable: [
        { key: "base", value: `http://127.0.0.1:${server.addr.port}` },
        { key: "refreshToken", value: REFRESH },
      ],
      item: [{
        name: "refresh",
        request: {
          method: "POST",
          url: "{{base}}/auth/refresh",
          header: [{ key: "X-Device", value: DEVICE }],
          body: {
            mode: "raw",
            raw: '{"refreshToken": "{{refreshToken}}"}',
            options: { raw: { language: "json" } },
          },
        },
      }],
    };
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/1_refresh.yaml`);
    assert.doesNotMatch(flow, /\*\*\*/, flow);
    assert.doesNotMatch(flow + converted.stdout + converted.stderr, /eyJ/, flow);
    const said = converted.stdout + converted.stderr;
    const asked = said.match(/^Set before running: (.*)$/m)?.[1] ?? "";
    assert.match(asked, /REFRESH_TOKEN \(\{\{refreshToken\}\}, a secret\)/, said);
    assert.match(asked, /JWT \(a JSON Web Token written in the collection, a secret\)/, asked);
    const run = await runCli(["run", `${dir}/out/`], {
      env: { REFRESH_TOKEN: REFRESH, JWT: DEVICE },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
    assert.deepEqual(seen, [[DEVICE, { refreshToken: REFRESH }]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
