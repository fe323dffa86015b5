/**
 * HTTPS services with a private CA and a client certificate, and proxies:
 * certificates made at test time with openssl, an HTTPS server, one that
 * requires a client certificate (mutual TLS), and a forward proxy that
 * records what passed through it; run options and flow options both.
 */
import assert from "node:assert/strict";
import https from "node:https";
import { gzipSync } from "node:zlib";
import { runCli } from "../support/cli.ts";
import { forwardProxy, hasOpenssl, makeCertificates } from "../support/tls.ts";
import { httpsServe, mutualTlsServer } from "../support/tls_servers.ts";

const ignore = !hasOpenssl();

async function servers(pem: Record<string, string>) {
  const plain = httpsServe(pem, () => Response.json({ tls: true }));
  const mutual = await mutualTlsServer(pem, (client, _req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ client }));
  });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ plain: true }),
  );
  return {
    https: `https://127.0.0.1:${plain.addr.port}`,
    mtls: mutual.url,
    http: `http://127.0.0.1:${http.addr.port}`,
    close: async () => {
      await plain.shutdown();
      await http.shutdown();
      await mutual.close();
    },
  };
}

/** What a TLS test is given: its folder, the certificates, the servers and a forward proxy. */
interface TlsSetup {
  dir: string;
  pem: Record<string, string>;
  srv: Awaited<ReturnType<typeof servers>>;
  proxy: ReturnType<typeof forwardProxy>;
}

/**
 * Runs `fn` in a fresh folder with certificates made in `certsIn(dir)` (the
 * folder itself unless told), the servers and a forward proxy started; all
 * stopped and the folder removed whatever `fn` does.
 */
async function withTls(
  prefix: string,
  fn: (setup: TlsSetup) => Promise<void>,
  certsIn: (dir: string) => Promise<string> = (dir) => Promise.resolve(dir),
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    const pem = await makeCertificates(await certsIn(dir));
    const srv = await servers(pem);
    const proxy = forwardProxy();
    try {
      await fn({ dir, pem, srv, proxy });
    } finally {
      proxy.close();
      await srv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function flow(name: string, url: string, options = ""): string {
  return `name: ${name}\n${options}steps:\n  - name: get\n    request: {url: "${url}/"}\n    assert: {status: 200}\n`;
}

Deno.test({
  name: "a private CA and a client certificate, from the command line and from a flow",
  ignore,
  fn: () =>
    withTls("flowrun-tls-", async ({ dir, srv }) => {
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
    }),
});

Deno.test({
  name: "requests go through a proxy when asked, except the hosts in --no-proxy",
  ignore,
  fn: () =>
    withTls("flowrun-proxy-", async ({ dir, srv, proxy }) => {
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
      const viaProxy = (...more: string[]) =>
        runCli([
          "run",
          `${dir}/both.yaml`,
          "--cacert",
          `${dir}/ca.pem`,
          "--proxy",
          proxy.url,
          ...more,
        ]);
      const run = await viaProxy();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(proxy.seen, [
        `CONNECT ${srv.https.replace("https://", "")}`,
        `GET ${srv.http}/x?y=1`,
      ]);
      proxy.seen.length = 0;
      const bypass = await viaProxy("--no-proxy", "127.0.0.1");
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
    }),
});

Deno.test({
  name: "--insecure and insecure: true skip certificate checks, loudly, through proxies too",
  ignore,
  fn: () =>
    withTls("flowrun-insecure-", async ({ dir, pem, srv, proxy }) => {
      const received: string[] = [];
      // Self-signed for another name; answers gzip, redirects a POST with 303, echoes what it got.
      const self = https.createServer(
        { cert: pem["self.pem"], key: pem["self.key"] },
        (req, res) => {
          let body = "";
          req.on("data", (d) => body += d);
          req.on("end", () => {
            received.push(`${req.method} ${req.url} ${req.headers["content-type"] ?? ""}`);
            if (req.url === "/login") {
              res.writeHead(303, { location: "/home", "set-cookie": "sid=s3cr3t-session; Path=/" });
              return res.end();
            }
            const json = JSON.stringify({
              path: req.url,
              method: req.method,
              body,
              cookie: req.headers.cookie ?? null,
            });
            res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
            res.end(gzipSync(json));
          });
        },
      );
      await new Promise<void>((resolve) => self.listen(0, "127.0.0.1", () => resolve()));
      const base = `https://127.0.0.1:${(self.address() as { port: number }).port}`;
      try {
        const steps = `steps:
  - name: login
    request:
      method: POST
      url: "${base}/login"
      form: {user: ada}
    assert:
      status: 200
      json:
        - {path: $.json.path, equals: /home}
        - {path: $.json.method, equals: GET}
        - {path: $.json.cookie, equals: sid=s3cr3t-session}
        - {path: $.url, equals: "${base}/home"}
  - name: upload
    request:
      method: POST
      url: "${base}/upload"
      multipart: {note: hello}
    assert:
      json: [{path: $.json.body, matches: "name=\\"note\\"[\\\\s\\\\S]*hello"}]
`;
        await Deno.writeTextFile(
          `${dir}/dev.yaml`,
          `name: dev\noptions: {follow_redirects: true, cookie_jar: true}\n${steps}`,
        );
        const strict = await runCli(["run", `${dir}/dev.yaml`]);
        assert.equal(strict.code, 1, strict.stdout);
        assert.match(strict.stdout, /the server's certificate is self-signed .*--insecure/);
        assert.equal(received.length, 0);

        const loose = await runCli([
          "run",
          `${dir}/dev.yaml`,
          "--insecure",
          "--report-json",
          `${dir}/r.json`,
        ]);
        assert.equal(loose.code, 0, loose.stdout + loose.stderr);
        assert.match(
          loose.stderr,
          /warning\[insecure\]: --insecure is on: TLS certificates are not checked/,
        );
        assert.deepEqual(received.slice(0, 2), [
          "POST /login application/x-www-form-urlencoded",
          "GET /home ",
        ]);
        assert.match(String(received[2]), /^POST \/upload multipart\/form-data; boundary=/);
        // The cookie the server set stays secret in every artifact, this way too.
        assert.doesNotMatch(await Deno.readTextFile(`${dir}/r.json`), /s3cr3t-session/);

        // From the flow itself, through the proxy (a CONNECT tunnel), with a client certificate.
        received.length = 0;
        await Deno.writeTextFile(
          `${dir}/own.yaml`,
          `name: own
options: {insecure: true, proxy: "${proxy.url}", follow_redirects: true, cookie_jar: true, client_cert: client.pem, client_key: client.key}
${steps}  - name: mutual
    request: {url: "${srv.mtls}/"}
    assert:
      json: [{path: $.json.client, equals: flowrun client}]
`,
        );
        const own = await runCli(["run", `${dir}/own.yaml`]);
        assert.equal(own.code, 0, own.stdout + own.stderr);
        assert.match(own.stderr, /warning\[insecure\]: .*own\.yaml sets insecure: true/);
        assert.equal(received.length, 3);
        const authority = (url: string) => `CONNECT ${url.replace("https://", "")}`;
        assert.deepEqual(proxy.seen, [
          authority(base),
          authority(base),
          authority(base),
          authority(srv.mtls),
        ]);

        // The standard variables apply to insecure requests too, NO_PROXY included.
        proxy.seen.length = 0;
        const viaEnv = await runCli(["run", `${dir}/dev.yaml`, "--insecure"], {
          env: { HTTPS_PROXY: proxy.url },
        });
        assert.equal(viaEnv.code, 0, viaEnv.stdout + viaEnv.stderr);
        assert.deepEqual(proxy.seen, [authority(base), authority(base), authority(base)]);
        proxy.seen.length = 0;
        const bypassed = await runCli(["run", `${dir}/dev.yaml`, "--insecure"], {
          env: { https_proxy: proxy.url, NO_PROXY: "localhost,127.0.0.1" },
        });
        assert.equal(bypassed.code, 0, bypassed.stdout + bypassed.stderr);
        assert.deepEqual(proxy.seen, []);

        const bad = await runCli([
          "run",
          `${dir}/dev.yaml`,
          "--insecure",
          "--proxy",
          "socks5://127.0.0.1:1",
        ]);
        // Refused before anything is sent, as every client setting the run cannot use.
        assert.equal(bad.code, 2, bad.stdout + bad.stderr);
        assert.match(bad.stderr, /error\[bad-proxy\]: .*http:\/\/ proxies only/);
      } finally {
        await new Promise((r) => self.close(r));
      }
    }),
});

Deno.test({
  name: "the example examples/tls/private_https.yaml runs: private CA, client certificate, proxy",
  ignore,
  fn: () =>
    withTls("flowrun-tls-example-", async ({ dir, srv, proxy }) => {
      await Deno.copyFile("examples/tls/private_https.yaml", `${dir}/private_https.yaml`);
      const run = await runCli(["run", `${dir}/private_https.yaml`, "--proxy", proxy.url], {
        env: { SECURE_URL: srv.mtls },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(proxy.seen, [`CONNECT ${srv.mtls.replace("https://", "")}`]);
      // Without the client certificate the same server refuses the flow.
      await Deno.remove(`${dir}/certs/client.pem`);
      const missing = await runCli(["run", `${dir}/private_https.yaml`], {
        env: { SECURE_URL: srv.mtls },
      });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /client\.pem/);
    }, async (dir) => {
      await Deno.mkdir(`${dir}/certs`);
      return `${dir}/certs`;
    }),
});
