/**
 * `grpcs://` through the run's proxy (issue 55, "the run's CA, client
 * certificates and proxy options apply where gRPC allows"): grpc-js's own
 * TLS over its CONNECT tunnel fails under Deno ("wrong version number"),
 * so flowrun opens the tunnel itself. Proven against grpc-js's atlas server
 * over TLS with a private CA made here, behind CONNECT proxies started
 * here: one without credentials, one asking for Basic credentials (right
 * ones pass, a wrong one is the proxy's refusal in flowrun's sentence and
 * nothing reaches the server); the environment's `HTTPS_PROXY` is taken
 * for a TLS target and `NO_PROXY` hosts are called directly. The proxy's
 * password is in no artifact. A target named by its IP address sends no
 * TLS server name (grpc-js sent the address, which Deno refuses) and is
 * still checked against the certificate's IP names. And an atlas server run
 * by Node itself, asking for no client certificate (under Deno, grpc-js's
 * TLS server then answers bytes no client reads: the "wrong version number"
 * once blamed on the proxy), through both proxies by its host name.
 */
import assert from "node:assert/strict";
import { forwardProxy, makeCertificates } from "../../support/tls.ts";
import { authProxy } from "../websocket/servers.ts";
import {
  assertBasicConnect,
  assertNowhere,
  assertRefused,
  runArtifacts,
  tlsAtlas,
  tlsTest,
} from "./support.ts";
import { prepare } from "../../real/servers.ts";
import { type Served, servedOfficial } from "./served.ts";

// grpc-js and proto-loader for Node: the ones Artillery's install holds (tests/export uses them too).
const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../../fixtures/grpc/", import.meta.url).pathname;

const FLOW = `name: proxied tls
vars: { port: "0" }
steps:
  - name: place
    grpc:
      target: "grpcs://127.0.0.1:\${vars.port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
    assert:
      status: 0
      json: [{ path: $.json.location.latitude, equals: 405551234 }]
  - name: again
    grpc:
      target: "grpcs://127.0.0.1:\${vars.port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 2 }
    assert:
      status: 0
`;

/** Runs FLOW with the CA and client certificate in `certs`; the exit code, every artifact's text and the steps. */
function run(
  certs: string,
  port: number,
  args: string[],
  env: Record<string, string> = {},
  flow = FLOW,
) {
  const tls = ["--cacert", `${certs}/ca.pem`, "--cert", `${certs}/client.pem`];
  return runArtifacts(flow, port, [...tls, "--key", `${certs}/client.key`, ...args], env);
}

/** A TLS test given an atlas server over TLS and the proxy `makeProxy` starts, both stopped after. */
function proxiedTest<P extends { close(): void }>(
  name: string,
  makeProxy: () => P,
  fn: (certs: string, server: Served, proxy: P) => Promise<void>,
): void {
  tlsTest(name, async (certs) => {
    const server = await tlsAtlas(certs);
    const proxy = makeProxy();
    try {
      await fn(certs, server, proxy);
    } finally {
      proxy.close();
      await server.close();
    }
  });
}

proxiedTest(
  "grpcs:// through a CONNECT proxy: TLS with the run's CA and client certificate inside the tunnel, one tunnel for the run's calls",
  forwardProxy,
  async (certs, server, proxy) => {
    const via = await run(certs, server.port, ["--proxy", proxy.url]);
    assert.equal(via.code, 0, via.artifacts.console);
    assert.deepEqual(via.steps.map((s) => s.status), ["passed", "passed"]);
    // Both calls on one HTTP/2 connection, so one tunnel.
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${server.port}`]);
    assert.equal(server.calls.length, 2);
  },
);

proxiedTest(
  "grpcs:// through a proxy with user and password: Basic on the CONNECT; a wrong one is the proxy's refusal in a sentence",
  () => authProxy("ada", "gr9cs-pr0xy-pw"),
  async (certs, server, proxy) => {
    const target = `127.0.0.1:${server.port}`;
    const ok = await run(certs, server.port, [
      "--proxy",
      `http://ada:gr9cs-pr0xy-pw@127.0.0.1:${proxy.port}`,
    ]);
    assertBasicConnect(ok, proxy.heads, target, "gr9cs-pr0xy-pw");
    assert.equal(server.calls.length, 2);

    const wrong = await run(certs, server.port, [
      "--proxy",
      `http://ada:n0pe-pr0xy-pw@127.0.0.1:${proxy.port}`,
      "--timeout",
      "5s",
    ]);
    assertRefused(wrong, proxy.port, target, "n0pe-pr0xy-pw");
    assert.equal(server.calls.length, 2, "the refused calls never reached the server");
  },
);

proxiedTest(
  "grpcs:// takes HTTPS_PROXY (not HTTP_PROXY) from the environment, and calls NO_PROXY hosts directly",
  forwardProxy,
  async (certs, server, proxy) => {
    // HTTP_PROXY names a port nobody listens on: a TLS call must not take it.
    const env = { HTTPS_PROXY: proxy.url, HTTP_PROXY: "http://127.0.0.1:9" };
    const via = await run(certs, server.port, [], env);
    assert.equal(via.code, 0, via.artifacts.console);
    assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${server.port}`]);
    const direct = await run(certs, server.port, [], { ...env, NO_PROXY: "127.0.0.1" });
    assert.equal(direct.code, 0, direct.artifacts.console);
    assert.equal(proxy.seen.length, 1, "the NO_PROXY host was called directly");
    assert.equal(server.calls.length, 4);
  },
);

/** The atlas server of node_tls_server.cjs, run by Node with the key and certificate in `certs`. */
async function nodeServer(certs: string) {
  const child = new Deno.Command("node", {
    args: [
      `${FIXTURES}node_tls_server.cjs`,
      `${FIXTURES}protos/atlas.proto`,
      `${certs}/server.key`,
      `${certs}/server.pem`,
    ],
    env: { NODE_PATH: `${installed.install!.prefix}/node_modules` },
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  // The port comes first; a server that dies ends the stream (bounded by the child's life).
  while (!text.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`node_tls_server.cjs ended before its port: ${text}`);
    text += value;
  }
  const port = Number(text.split("\n")[0]);
  const calls = async () => {
    await child.stdin.close();
    for (let r = await lines.read(); !r.done; r = await lines.read()) text += r.value;
    await child.status;
    return text.split("\n").filter((l) => l === "call").length;
  };
  return { port, calls };
}

tlsTest(
  `grpcs:// by host name through both proxies to a server run by Node asking for no client certificate${installed.ignoredBecause}`,
  async (certs) => {
    await makeCertificates(certs);
    const server = await nodeServer(certs);
    const plain = forwardProxy();
    const auth = authProxy("ada", "n0de-pr0xy-pw");
    try {
      const flow = FLOW.replaceAll("grpcs://127.0.0.1", "grpcs://localhost");
      for (const proxy of [plain.url, `http://ada:n0de-pr0xy-pw@127.0.0.1:${auth.port}`]) {
        const via = await run(certs, server.port, ["--proxy", proxy], {}, flow);
        assert.equal(via.code, 0, via.artifacts.console);
        assertNowhere("n0de-pr0xy-pw", via.artifacts);
      }
      assert.deepEqual(plain.seen, [`CONNECT localhost:${server.port}`]);
      assert.equal(auth.heads.length, 1, JSON.stringify(auth.heads));
      assert.match(
        auth.heads[0],
        new RegExp(`^CONNECT localhost:${server.port} HTTP/1\\.[01]\r\n`),
      );
    } finally {
      plain.close();
      auth.close();
      assert.equal(await server.calls(), 4, "two calls through each proxy");
    }
  },
  installed.ignoredBecause !== "",
);

tlsTest(
  "grpcs:// by IP address is checked against the certificate's IP names: a certificate without them fails",
  async (certs) => {
    // dev.example's self-signed certificate, trusted as its own CA, names no IP address.
    const server = await tlsAtlas(certs, "self");
    try {
      const wrong = await run(certs, server.port, ["--cacert", `${certs}/self.pem`]);
      assert.equal(wrong.code, 1, wrong.artifacts.console);
      assert.equal(wrong.steps[0].status, "error");
      assert.match(
        wrong.steps[0].message ?? "",
        /IP: 127\.0\.0\.1 is not in the cert's list/,
        "the certificate was checked against the address",
      );
      assert.equal(server.calls.length, 0);
    } finally {
      await server.close();
    }
  },
);

tlsTest(
  "grpcs:// by IP address through a proxy, the method from the server's reflection: asked on the same tunnel",
  async (certs) => {
    const pem = await makeCertificates(certs);
    const tls = { cert: pem["server.pem"], key: pem["server.key"], clientCa: pem["ca.pem"] };
    const server = await servedOfficial({ tls });
    const proxy = forwardProxy();
    try {
      const port = Number(server.target.split(":").at(-1));
      // FLOW without its proto: lines, so the method comes from reflection.
      const flow = FLOW.replaceAll("      proto: protos/atlas.proto\n", "");
      const via = await run(certs, port, ["--proxy", proxy.url], {}, flow);
      assert.equal(via.code, 0, via.artifacts.console);
      assert.deepEqual(
        proxy.seen,
        [`CONNECT 127.0.0.1:${port}`],
        "one tunnel for reflection and calls",
      );
      assert.ok(server.asked.length > 0, "reflection was asked");
    } finally {
      proxy.close();
      await server.close();
    }
  },
);
