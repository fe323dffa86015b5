/**
 * An sse step takes the environment's proxy without `--insecure` too, as
 * an HTTP step does (issue 55, "the run's proxy options"): `HTTP_PROXY`
 * for an http:// stream (not `HTTPS_PROXY`), each reconnection the same
 * way, and `NO_PROXY` hosts read directly. The gRPC and WebSocket cases
 * are in tests/kinds/{grpc,websocket}/proxy_audit55_test.ts.
 */
import assert from "node:assert/strict";
import { runBounded } from "../../support/cli.ts";
import { recordingProxy } from "./proxy_server.ts";
import { startSseServer } from "./server.ts";

const FLOW = `name: proxied
steps:
  - name: resumed
    sse: {url: "\${ENV.BASE}/drop", until: "$[?@.event == 'done']", reconnects: 1}
    assert:
      json:
        - {path: "$.json.events[-1].data.n", equals: 6}
`;

async function run(env: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-env-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    return await runBounded(["run", `${dir}/flow.yaml`], { env, ms: 60_000 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an http:// stream takes HTTP_PROXY without --insecure, each reconnection too; NO_PROXY hosts directly", async () => {
  const server = startSseServer();
  const proxy = recordingProxy();
  try {
    const env = { BASE: server.url, HTTP_PROXY: proxy.url, HTTPS_PROXY: "http://127.0.0.1:9" };
    const via = await run(env);
    assert.equal(via.code, 0, via.stdout + via.stderr);
    assert.equal(proxy.heads.length, 2, "the stream and its reconnection went through the proxy");
    assert.ok(
      proxy.heads.every((h) => h.startsWith(`GET ${server.url}/drop HTTP/1.1`)),
      proxy.heads.join("\n"),
    );
    const direct = await run({ ...env, NO_PROXY: "127.0.0.1" });
    assert.equal(direct.code, 0, direct.stdout + direct.stderr);
    assert.equal(proxy.heads.length, 2, "the NO_PROXY host was read directly");
  } finally {
    proxy.close();
    await server.close();
  }
});
