/**
 * A websocket step's handshake gets what an HTTP step's request gets: the
 * flow's auth (a bearer token here, masked everywhere; `auth: none` on the
 * step sends none) and the flow run's cookie jar (a login's session cookie
 * sent with the upgrade, the cookie the upgrade sets kept for the next
 * request). Against ws's server and Deno's, CLI as a subprocess.
 */
import assert from "node:assert/strict";
import { denoServer, TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";

Deno.test("the flow's bearer auth authorises the handshake, masked in every artifact; auth: none sends none", async () => {
  const server = await wsServer();
  try {
    const step = (name: string, extra = "") =>
      `  - name: ${name}\n    websocket:\n      url: "ws://127.0.0.1:${server.port}/chat"\n` +
      `      send: [{ text: bye }]\n      until: "$[?@.type == 'done']"\n${extra}`;
    const run = await runFlow(
      `name: auth\nauth:\n  bearer: { token: "\${ENV.WS_TOKEN}" }\nsteps:\n` +
        step("with", "    assert: { status: 101 }\n") +
        step("without", "    auth: none\n    assert: { status: 101 }\n"),
      { env: { WS_TOKEN: TOKEN } },
    );
    assert.equal(run.code, 1, run.stdout);
    assert.deepEqual(run.steps.map((s) => [s.name, s.status, s.response?.status]), [
      ["with", "passed", 101],
      ["without", "failed", 401],
    ]);
    for (
      const [name, text] of Object.entries({
        console: run.stdout,
        json: run.json,
        junit: run.junit,
        html: run.html,
        log: run.log,
      })
    ) {
      assert.ok(!text.includes(TOKEN), `the token is masked in ${name}`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("the cookie jar: a login's cookie goes with the upgrade, the upgrade's cookie with the next request", async () => {
  const ws = await wsServer();
  const http = denoServer();
  try {
    const yaml =
      `name: jar\nsteps:\n  - name: login\n    request: { url: "http://127.0.0.1:${http.port}/login" }\n` +
      `  - name: socket\n    websocket: { url: "ws://127.0.0.1:${ws.port}/jar", count: 1, wait: 200ms }\n` +
      `    assert: { status: 101 }\n` +
      `  - name: after\n    request: { url: "http://127.0.0.1:${http.port}/cookies" }\n` +
      `    assert:\n      json:\n        - { path: $.json.cookie, contains: seen=ws }\n`;
    const jar = await runFlow(yaml, { args: ["--cookie-jar"] });
    assert.equal(jar.code, 0, jar.stdout);
    // Without the jar the server refuses the upgrade: the cookie is what let it through.
    const none = await runFlow(yaml);
    assert.equal(none.steps[1].response?.status, 401, none.stdout);
  } finally {
    await ws.close();
    await http.close();
  }
});
