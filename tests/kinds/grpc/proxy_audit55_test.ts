/**
 * A gRPC call through the run's proxy "where gRPC allows" (issue 55): an
 * http:// proxy's user and password go as Proxy-Authorization: Basic on the
 * CONNECT, a wrong one is the proxy's refusal in a sentence; a socks5 proxy
 * (which grpc-js cannot tunnel through) is refused in a sentence; the
 * proxy from the environment (`HTTPS_PROXY`) is used and `NO_PROXY` hosts
 * are called directly, with or without `--insecure`. The proxy's password
 * is in no artifact. grpcs:// through a proxy: proxy_tls_test.ts.
 */
import assert from "node:assert/strict";
import { forwardProxy } from "../../support/tls.ts";
import { authProxy } from "../websocket/servers.ts";
import { assertBasicConnect, assertNowhere, assertRefused, runArtifacts } from "./support.ts";
import { servedAtlas } from "./served.ts";

const FLOW = `name: proxied
vars: { port: "0" }
steps:
  - name: place
    grpc:
      target: "127.0.0.1:\${vars.port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
    assert:
      status: 0
`;

/** Runs FLOW with `args` and `env`; the exit code, console, every artifact's text and the steps. */
function run(port: number, args: string[], env: Record<string, string> = {}) {
  return runArtifacts(FLOW, port, args, env);
}

Deno.test("gRPC through a proxy with user and password: Basic on the CONNECT; a wrong one is the proxy's refusal in a sentence", async () => {
  const server = await servedAtlas();
  const proxy = authProxy("ada", "gr9c-pr0xy-pw");
  try {
    const target = `127.0.0.1:${server.port}`;
    const ok = await run(server.port, [
      "--proxy",
      `http://ada:gr9c-pr0xy-pw@127.0.0.1:${proxy.port}`,
    ]);
    assertBasicConnect(ok, proxy.heads, target, "gr9c-pr0xy-pw");

    const wrong = await run(server.port, [
      "--proxy",
      `http://ada:n0pe-pr0xy-pw@127.0.0.1:${proxy.port}`,
      "--timeout",
      "5s",
    ]);
    // The proxy's refusal in words, as a WebSocket or SSE step says it; not grpc-js's own log line.
    assertRefused(wrong, proxy.port, target, "n0pe-pr0xy-pw");
    assert.doesNotMatch(wrong.artifacts.console, /Failed to connect to/);
    assert.equal(server.calls.length, 1, "the refused call never reached the server");
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test("gRPC through a proxy nobody listens on: the step's error names the proxy", async () => {
  const server = await servedAtlas();
  const gone = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (gone.addr as Deno.NetAddr).port;
  gone.close();
  try {
    const run1 = await run(server.port, ["--proxy", `http://127.0.0.1:${port}`, "--timeout", "5s"]);
    assert.equal(run1.steps[0].status, "error", JSON.stringify(run1.steps[0]));
    assert.match(
      run1.steps[0].message ?? "",
      new RegExp(
        `is unavailable: the proxy 127\\.0\\.0\\.1:${port} could not be reached \\(.+\\)\\.$`,
      ),
    );
    assert.doesNotMatch(run1.artifacts.console, /Failed to connect to/);
    assert.equal(server.calls.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("gRPC with a socks5 proxy: the step is an error naming why, the proxy's password masked", async () => {
  const server = await servedAtlas();
  try {
    const socks = await run(server.port, ["--proxy", "socks5://ada:s0cks-pw-77@127.0.0.1:1080"]);
    assert.equal(socks.code, 1, socks.artifacts.console);
    assert.equal(socks.steps[0].status, "error");
    assert.match(socks.steps[0].message ?? "", /gRPC goes through an http:\/\/ proxy only/);
    assert.match(socks.steps[0].message ?? "", /socks5:\/\/ada:/, "the sentence names the proxy");
    assertNowhere("s0cks-pw-77", socks.artifacts);
    assert.equal(server.calls.length, 0, "nothing was sent");
  } finally {
    await server.close();
  }
});

Deno.test("gRPC takes the environment's proxy without --insecure (HTTP_PROXY for h2c), and calls NO_PROXY hosts directly", async () => {
  const server = await servedAtlas();
  const proxy = forwardProxy();
  try {
    const target = `127.0.0.1:${server.port}`;
    // HTTPS_PROXY names a port nobody listens on: an h2c call must not take it.
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: "http://127.0.0.1:9" };
    const via = await run(server.port, [], env);
    assert.equal(via.code, 0, via.artifacts.console);
    assert.deepEqual(proxy.seen, [`CONNECT ${target}`]);
    const direct = await run(server.port, [], { ...env, NO_PROXY: "127.0.0.1" });
    assert.equal(direct.code, 0, direct.artifacts.console);
    assert.equal(proxy.seen.length, 1, "the NO_PROXY host was called directly");
    assert.equal(server.calls.length, 2);
  } finally {
    proxy.close();
    await server.close();
  }
});
