/**
 * wss:// with the run's TLS options, against the `ws` package's server over
 * Node's `https` with a private test CA: trusted by `--cacert` (added to
 * the system's roots), refused without it, accepted with `--insecure`, and a
 * client certificate (`--cert`/`--key`) presented to a server that requires
 * one.
 */
import assert from "node:assert/strict";
import { hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";

const ignore = !hasOpenssl();

function flow(port: number): string {
  return `name: wss\nsteps:\n  - name: s\n    websocket:\n      url: "wss://localhost:${port}/chat"\n` +
    `      headers: { authorization: "Bearer ${TOKEN}" }\n      send: [{ text: bye }]\n` +
    `      until: "$[?@.type == 'done']"\n    assert:\n      status: 101\n` +
    `      json:\n        - { path: "$.json.messages[0].type", equals: welcome }\n`;
}

Deno.test({
  name: "wss:// is verified against --cacert, refused without it, accepted with --insecure",
  ignore,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-wss-" });
    const certs = await makeCertificates(dir);
    const server = await wsServer({ cert: certs["server.pem"], key: certs["server.key"] });
    try {
      const trusted = await runFlow(flow(server.port), { args: ["--cacert", `${dir}/ca.pem`] });
      assert.equal(trusted.code, 0, trusted.stdout);
      assert.equal(trusted.steps[0].request?.url, `wss://localhost:${server.port}/chat`);

      const untrusted = await runFlow(flow(server.port));
      assert.equal(untrusted.code, 1, untrusted.stdout);
      assert.equal(untrusted.steps[0].status, "error");
      assert.match(
        untrusted.steps[0].message ?? "",
        new RegExp(
          `^The certificate of localhost:${server.port} was not accepted \\(.+\\); ` +
            "trust its CA with --cacert, or skip the check with --insecure\\.",
        ),
      );

      const insecure = await runFlow(flow(server.port), { args: ["--insecure"] });
      assert.equal(insecure.code, 0, insecure.stdout);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("wss:// to a port that serves plain WebSocket says so", async () => {
  const server = await wsServer();
  try {
    const run = await runFlow(flow(server.port).replace("wss://localhost", "wss://127.0.0.1"));
    assert.equal(run.steps[0].status, "error", run.stdout);
    assert.equal(
      run.steps[0].message,
      `127.0.0.1:${server.port} does not speak TLS on that port (use ws:// if it serves plain WebSocket).`,
    );
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "a client certificate (--cert, --key) is presented to a wss:// server that requires one",
  ignore,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-wss-" });
    const certs = await makeCertificates(dir);
    const server = await wsServer({
      cert: certs["server.pem"],
      key: certs["server.key"],
      ca: certs["ca.pem"],
      requestCert: true,
      rejectUnauthorized: true,
    });
    try {
      const ca = ["--cacert", `${dir}/ca.pem`];
      const without = await runFlow(flow(server.port), { args: ca });
      assert.equal(without.steps[0].status, "error", without.stdout);
      const withCert = await runFlow(flow(server.port), {
        args: [...ca, "--cert", `${dir}/client.pem`, "--key", `${dir}/client.key`],
      });
      assert.equal(withCert.code, 0, withCert.stdout);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
