/**
 * A websocket step through the run's proxy (`--proxy`, `HTTPS_PROXY`): a
 * CONNECT tunnel through a real forward proxy the test starts, for ws://
 * and for wss:// (TLS to the target inside the tunnel, verified with
 * `--cacert`); `--no-proxy` connects directly; a socks5 proxy is refused in
 * a sentence.
 */
import assert from "node:assert/strict";
import { forwardProxy, hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { authProxy, TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";

function flow(url: string): string {
  return `name: proxied\nsteps:\n  - name: s\n    websocket:\n      url: "${url}/chat"\n` +
    `      headers: { authorization: "Bearer ${TOKEN}" }\n      send: [{ text: bye }]\n` +
    `      until: "$[?@.type == 'done']"\n    assert:\n      status: 101\n`;
}

Deno.test("ws:// goes through --proxy as a CONNECT tunnel; --no-proxy connects directly", async () => {
  const server = await wsServer();
  const proxy = forwardProxy();
  try {
    const target = `127.0.0.1:${server.port}`;
    const run = await runFlow(flow(`ws://${target}`), { args: ["--proxy", proxy.url] });
    assert.equal(run.code, 0, run.stdout);
    assert.deepEqual(proxy.seen, [`CONNECT ${target}`]);
    const direct = await runFlow(flow(`ws://${target}`), {
      args: ["--proxy", proxy.url, "--no-proxy", "127.0.0.1"],
    });
    assert.equal(direct.code, 0, direct.stdout);
    assert.equal(proxy.seen.length, 1, "the bypassed run did not use the proxy");
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test({
  name: "wss:// through the proxy: TLS to the target inside the tunnel, verified with --cacert",
  ignore: !hasOpenssl(),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-wss-proxy-" });
    const certs = await makeCertificates(dir);
    const server = await wsServer({ cert: certs["server.pem"], key: certs["server.key"] });
    const proxy = forwardProxy();
    try {
      const url = `wss://localhost:${server.port}`;
      const run = await runFlow(flow(url), {
        args: ["--proxy", proxy.url, "--cacert", `${dir}/ca.pem`],
      });
      assert.equal(run.code, 0, run.stdout);
      assert.deepEqual(proxy.seen, [`CONNECT localhost:${server.port}`]);
      const untrusted = await runFlow(flow(url), { args: ["--proxy", proxy.url] });
      assert.equal(untrusted.steps[0].status, "error", untrusted.stdout);
      assert.match(untrusted.steps[0].message ?? "", /certificate/i);
    } finally {
      proxy.close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a proxy's user and password go as Proxy-Authorization: Basic; a wrong one is the proxy's 407 in a sentence", async () => {
  const server = await wsServer();
  const proxy = authProxy("ada", "s3cr3t-pw");
  try {
    const target = `127.0.0.1:${server.port}`;
    const run = await runFlow(flow(`ws://${target}`), {
      args: ["--proxy", `http://ada:s3cr3t-pw@127.0.0.1:${proxy.port}`],
    });
    assert.equal(run.code, 0, run.stdout);
    assert.match(proxy.heads[0], new RegExp(`^CONNECT ${target} HTTP/1.1\r\n`));
    const wrong = await runFlow(flow(`ws://${target}`), {
      args: ["--proxy", `http://ada:nope-pw@127.0.0.1:${proxy.port}`],
    });
    assert.equal(wrong.steps[0].status, "error", wrong.stdout);
    assert.match(
      wrong.steps[0].message ?? "",
      new RegExp(
        `The proxy 127\\.0\\.0\\.1:${proxy.port} answered CONNECT ${target} with status 407`,
      ),
    );
    for (const text of [run.stdout, run.json, wrong.stdout, wrong.json, wrong.log]) {
      assert.ok(
        !text.includes("s3cr3t-pw") && !text.includes("nope-pw"),
        "proxy passwords stay out",
      );
    }
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test("a socks5 proxy is refused with a sentence naming it, its password masked", async () => {
  const run = await runFlow(flow("ws://127.0.0.1:9"), {
    args: ["--proxy", "socks5://user:hunter2pw@127.0.0.1:1080"],
  });
  assert.equal(run.code, 1, run.stdout);
  assert.equal(run.steps[0].status, "error");
  assert.match(run.steps[0].message ?? "", /http:\/\/ or https:\/\/ proxy only/);
  assert.ok(!run.stdout.includes("hunter2pw") && !run.json.includes("hunter2pw"));
});
