/**
 * A JSON Web Token a recording or a pasted command sends, that no response produced, is a
 * credential by what it is, whatever key it stands under. Sent under a key whose name marks no
 * credential (`{"grant": "eyJ…"}`), it was kept as written; the writer's last look masks every
 * token of that shape, so the flow held `grant: "***"` and sent the three characters `***`, with
 * only a note to review the flow. It is now read from `JWT`, which the summary asks for, and the
 * run sends the token given there. The flow's report masks it.
 */
import assert from "node:assert/strict";
import { convertCurl, convertHar } from "../../lib/convert/mod.ts";
import { runFlowText } from "../support/cli.ts";

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "");
const TOKEN = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub: "ann" })}.SflKxwRJSMeKKF2QT4fw`;

function har(base: string): string {
  const entry = {
    startedDateTime: "2026-11-29T08:00:00.000Z",
    time: 5,
    request: {
      method: "POST",
      url: `${base}/api/grants`,
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      postData: { mimeType: "application/json", text: JSON.stringify({ grant: TOKEN }) },
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: "application/json" }],
      cookies: [],
      content: { size: 11, mimeType: "application/json", text: '{"ok":true}' },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
  return JSON.stringify({
    log: { version: "1.2", creator: { name: "t", version: "1" }, entries: [entry] },
  });
}

Deno.test("jwt literal: a token no response produced is asked for as JWT, never sent as ***", async () => {
  const seen: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(await req.json());
    return Response.json({ ok: true });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const curl = convertCurl(
      `curl -X POST ${base}/api/grants -H "Content-Type: application/json" -d '{"grant":"${TOKEN}"}'`,
    ).yaml;
    for (const [what, yaml] of [["har", convertHar(har(base)).yaml], ["curl", curl]]) {
      assert.doesNotMatch(yaml, /\*\*\*|eyJ/, `${what}:\n${yaml}`);
      assert.match(yaml, /grant: \$\{ENV\.JWT\}/, yaml);
      assert.match(yaml, /^# +JWT +a JSON Web Token sent as recorded/m, yaml);
      const run = await runFlowText(yaml, { JWT: TOKEN, BASE_URL: base });
      assert.equal(run.code, 0, run.stdout + run.stderr + yaml);
      assert.doesNotMatch(JSON.stringify(run.report), /eyJ/, what);
    }
    assert.deepEqual(seen, [{ grant: TOKEN }, { grant: TOKEN }]);
  } finally {
    await server.shutdown();
  }
});
