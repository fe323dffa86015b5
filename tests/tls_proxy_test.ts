/**
 * HTTPS services with a private CA and a client certificate, and proxies:
 * certificates made at test time with openssl, an HTTPS server, one that
 * requires a client certificate (mutual TLS), and a forward proxy that
 * records what passed through it; run options and flow options both.
 */
import assert from "node:assert/strict";
import https from "node:https";
import { runCli } from "./support/cli.ts";
import { forwardProxy, hasOpenssl, makeCertificates } from "./support/tls.ts";

const ignore = !hasOpenssl();

async function servers(pem: Record<string, string>) {
  const plain = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      cert: pem["server.pem"],
      key: pem["server.key"],
      onListen() {},
    },
    () => Response.json({ tls: true }),
  );
  const mutual = https.createServer({
    cert: pem["server.pem"],
    key: pem["server.key"],
    ca: pem["ca.pem"],
    requestCert: true,
    rejectUnauthorized: true,
  }, (req, res) => {
    // deno-lint-ignore no-explicit-any
    const peer = (req.socket as any).getPeerCertificate?.();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ client: peer?.subject?.CN ?? null }));
  });
  await new Promise<void>((resolve) => mutual.listen(0, "127.0.0.1", () => resolve()));
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ plain: true }),
  );
  return {
    https: `https://127.0.0.1:${plain.addr.port}`,
    mtls: `https://127.0.0.1:${(mutual.address() as { port: number }).port}`,
    http: `http://127.0.0.1:${http.addr.port}`,
    close: async () => {
      await plain.shutdown();
      await http.shutdown();
      await new Promise((r) => mutual.close(r));
    },
  };
}

function flow(name: string, url: string, options = ""): string {
  return `name: ${name}\n${options}steps:\n  - name: get\n    request: {url: "${url}/"}\n    assert: {status: 200}\n`;
}

Deno.test({
  name: "a private CA and a client certificate, from the command line and from a flow",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-tls-" });
    const pem = await makeCertificates(dir);
    const srv = await servers(pem);
    try {
      await Deno.writeTextFile(`${dir}/https.yaml`, flow("https", srv.https));
      const untrusted = await runCli(["run", `${dir}/https.yaml`]);
      assert.equal(untrusted.code, 1);
      assert.match(untrusted.stdout, /TLS error|certificate/i);
      const trusted = await runCli(["run", `${dir}/https.yaml`, "--cacert", `${dir}/ca.pem`]);
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);

      await Deno.writeTextFile(
        `${dir}/mtls.yaml`,
        `name: mtls\nsteps:\n  - name: get\n    request: {url: "${srv.mtls}/"}\n    assert:\n      json: [{path: $.json.client, equals: flowrun client}]\n`,
      );
      const noCert = await runCli(["run", `${dir}/mtls.yaml`, "--cacert", `${dir}/ca.pem`]);
      assert.equal(noCert.code, 1, noCert.stdout);
      const withCert = await runCli([
        "run",
        `${dir}/mtls.yaml`,
        "--cacert",
        `${dir}/ca.pem`,
        "--cert",
        `${dir}/client.pem`,
        "--key",
        `${dir}/client.key`,
      ]);
      assert.equal(withCert.code, 0, withCert.stdout + withCert.stderr);

      // The same from the flow's options, paths relative to the flow file.
      await Deno.writeTextFile(
        `${dir}/own.yaml`,
        flow(
          "own",
          srv.mtls,
          "options: {ca_cert: ca.pem, client_cert: client.pem, client_key: client.key}\n",
        ),
      );
      const own = await runCli(["run", `${dir}/own.yaml`]);
      assert.equal(own.code, 0, own.stdout + own.stderr);

      const half = await runCli(["run", `${dir}/https.yaml`, "--cert", `${dir}/client.pem`]);
      assert.equal(half.code, 2);
      assert.match(half.stderr, /--cert needs --key/);
    } finally {
      await srv.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "requests go through a proxy when asked, except the hosts in --no-proxy",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-proxy-" });
    const pem = await makeCertificates(dir);
    const srv = await servers(pem);
    const proxy = forwardProxy();
    try {
      await Deno.writeTextFile(
        `${dir}/both.yaml`,
        `name: both
steps:
  - name: secure
    request: {url: "${srv.https}/"}
    assert: {status: 200}
  - name: plain
    request: {url: "${srv.http}/x?y=1"}
    assert: {status: 200}
`,
      );
      const run = await runCli([
        "run",
        `${dir}/both.yaml`,
        "--cacert",
        `${dir}/ca.pem`,
        "--proxy",
        proxy.url,
      ]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(proxy.seen, [
        `CONNECT ${srv.https.replace("https://", "")}`,
        `GET ${srv.http}/x?y=1`,
      ]);
      proxy.seen.length = 0;
      const bypass = await runCli([
        "run",
        `${dir}/both.yaml`,
        "--cacert",
        `${dir}/ca.pem`,
        "--proxy",
        proxy.url,
        "--no-proxy",
        "127.0.0.1",
      ]);
      assert.equal(bypass.code, 0, bypass.stdout + bypass.stderr);
      assert.deepEqual(proxy.seen, []);
      // The same from a flow's options: the proxy for every step, no_proxy per step.
      proxy.seen.length = 0;
      await Deno.writeTextFile(
        `${dir}/own.yaml`,
        `name: own
options: {proxy: "${proxy.url}", ca_cert: ca.pem}
steps:
  - name: secure
    request: {url: "${srv.https}/"}
    assert: {status: 200}
  - name: direct
    options: {no_proxy: [127.0.0.1]}
    request: {url: "${srv.http}/direct"}
    assert: {status: 200}
`,
      );
      const own = await runCli(["run", `${dir}/own.yaml`]);
      assert.equal(own.code, 0, own.stdout + own.stderr);
      assert.deepEqual(proxy.seen, [`CONNECT ${srv.https.replace("https://", "")}`]);
      const bad = await runCli(["run", `${dir}/both.yaml`, "--proxy", "proxy.local:3128"]);
      assert.equal(bad.code, 2);
      assert.match(
        bad.stderr,
        /error\[bad-proxy\]: --proxy "proxy\.local:3128" is not a proxy URL/,
      );
    } finally {
      proxy.close();
      await srv.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
