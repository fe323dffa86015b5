/**
 * `sse:` steps over TLS with the run's network settings, end to end: an
 * HTTPS SSE server whose certificate a private test CA signed is refused
 * without that CA, read with `--cacert` (also through `--proxy`, a CONNECT
 * tunnel), and read with `--insecure`; a server that requires a client
 * certificate gets `--cert`'s.
 */
import assert from "node:assert/strict";
import { mutualTlsServer } from "../../support/tls_servers.ts";
import { runCli } from "../../support/cli.ts";
import { forwardProxy, hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { startSseServer } from "./server.ts";

const FLOW = `name: tls
steps:
  - name: progress
    sse: {url: "\${ENV.BASE}/jobs/job-7/events", until: "$[?@.event == 'done']"}
    assert:
      json:
        - {path: "$.json.events[-1].data.result", equals: r-42}
`;

Deno.test({
  name: "an https event stream is read with --cacert (direct and through a proxy) and --insecure",
  ignore: !hasOpenssl(),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-tls-" });
    const files = await makeCertificates(dir);
    const server = startSseServer({ cert: files["server.pem"], key: files["server.key"] });
    const proxy = forwardProxy();
    try {
      await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
      const run = (...flags: string[]) =>
        runCli(["run", `${dir}/flow.yaml`, ...flags], { env: { BASE: server.url } });
      const refused = await run();
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      assert.match(
        refused.stdout,
        /failed: TLS error: the server's certificate is not signed by a CA this machine trusts \(UnknownIssuer\); trust its CA with --cacert FILE or ca_cert, or skip the check with --insecure\./,
      );
      const trusted = await run("--cacert", `${dir}/ca.pem`);
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
      const proxied = await run("--cacert", `${dir}/ca.pem`, "--proxy", proxy.url);
      assert.equal(proxied.code, 0, proxied.stdout + proxied.stderr);
      assert.deepEqual(proxy.seen, [`CONNECT ${server.url.replace("https://", "")}`]);
      const insecure = await run("--insecure");
      assert.equal(insecure.code, 0, insecure.stdout + insecure.stderr);
      assert.equal(server.seen.filter((s) => s.path === "/jobs/job-7/events").length, 3);
    } finally {
      proxy.close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** An SSE server that requires a client certificate its CA signed, and names it in its event. */
function mutualServer(pem: Record<string, string>) {
  return mutualTlsServer(pem, (client, _req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`event: done\ndata: ${JSON.stringify({ client })}\n\n`);
  });
}

Deno.test({
  name: "a server that requires a client certificate gets --cert's, also with --insecure",
  ignore: !hasOpenssl(),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-mtls-" });
    const pem = await makeCertificates(dir);
    const server = await mutualServer(pem);
    try {
      await Deno.writeTextFile(
        `${dir}/flow.yaml`,
        `name: mtls
steps:
  - name: who
    sse: {url: "\${ENV.BASE}/", until: "$[?@.event == 'done']"}
    assert:
      json:
        - {path: "$.json.events[0].data.client", equals: flowrun client}
`,
      );
      const run = (...flags: string[]) =>
        runCli(["run", `${dir}/flow.yaml`, ...flags], { env: { BASE: server.url } });
      const cert = ["--cert", `${dir}/client.pem`, "--key", `${dir}/client.key`];
      const without = await run("--cacert", `${dir}/ca.pem`);
      assert.equal(without.code, 1, without.stdout + without.stderr);
      const verified = await run("--cacert", `${dir}/ca.pem`, ...cert);
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      const insecure = await run("--insecure", ...cert);
      assert.equal(insecure.code, 0, insecure.stdout + insecure.stderr);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
