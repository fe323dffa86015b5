/**
 * A websocket step takes the environment's proxy as an HTTP step does
 * (issue 55, "the run's proxy options"): `HTTP_PROXY` for ws://,
 * `HTTPS_PROXY` for wss://, and `NO_PROXY` hosts connected to directly —
 * whether or not `--insecure` is given (the `ws` package reads no proxy
 * variable itself).
 */
import assert from "node:assert/strict";
import { forwardProxy, hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";

function flow(url: string): string {
  return `name: proxied\nsteps:\n  - name: s\n    websocket:\n      url: "${url}/chat"\n` +
    `      headers: { authorization: "Bearer ${TOKEN}" }\n      send: [{ text: bye }]\n` +
    `      until: "$[?@.type == 'done']"\n    assert:\n      status: 101\n`;
}

Deno.test("ws:// takes HTTP_PROXY from the environment, with and without --insecure; NO_PROXY hosts directly", async () => {
  const server = await wsServer();
  const proxy = forwardProxy();
  try {
    const target = `127.0.0.1:${server.port}`;
    for (const args of [[], ["--insecure"]]) {
      const run = await runFlow(flow(`ws://${target}`), { args, env: { HTTP_PROXY: proxy.url } });
      assert.equal(run.code, 0, run.stdout);
    }
    assert.deepEqual(proxy.seen, [`CONNECT ${target}`, `CONNECT ${target}`]);
    const direct = await runFlow(flow(`ws://${target}`), {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" },
    });
    assert.equal(direct.code, 0, direct.stdout);
    assert.equal(proxy.seen.length, 2, "the NO_PROXY host was connected to directly");
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test({
  name:
    "wss:// takes HTTPS_PROXY from the environment (not HTTP_PROXY): TLS to the target inside the tunnel",
  ignore: !hasOpenssl(),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-wss-env-" });
    const certs = await makeCertificates(dir);
    const server = await wsServer({ cert: certs["server.pem"], key: certs["server.key"] });
    const proxy = forwardProxy();
    try {
      // HTTP_PROXY names a port nobody listens on: a wss:// connection must not take it.
      const run = await runFlow(flow(`wss://localhost:${server.port}`), {
        args: ["--cacert", `${dir}/ca.pem`],
        env: { HTTPS_PROXY: proxy.url, HTTP_PROXY: "http://127.0.0.1:9" },
      });
      assert.equal(run.code, 0, run.stdout);
      assert.deepEqual(proxy.seen, [`CONNECT localhost:${server.port}`]);
    } finally {
      proxy.close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
