/**
 * `sse:` steps with `--insecure` through the run's proxy, end to end through
 * the CLI: a self-signed https stream through a CONNECT tunnel, an http one
 * in absolute form, reconnections through the proxy too; the proxy's
 * `user:password` sent as `Proxy-Authorization: Basic` and masked in every
 * artifact, a wrong one the proxy's 407 in a sentence; `--no-proxy`
 * connects directly; a socks5 proxy refused in a sentence; a proxy that
 * never answers bounded by the step's timeout and by Ctrl-C; the byte
 * limit holds through the tunnel.
 */
import assert from "node:assert/strict";
import { runBounded } from "../../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { recordingProxy } from "./proxy_server.ts";
import { startSseServer } from "./server.ts";

const FLOW = `name: proxied
steps:
  - name: progress
    sse: {url: "\${ENV.BASE}/jobs/job-7/events", until: "$[?@.event == 'done']"}
    assert:
      json:
        - {path: "$.json.events[-1].data.result", equals: r-42}
  - name: resumed
    sse: {url: "\${ENV.BASE}/drop", until: "$[?@.event == 'done']", reconnects: 1}
    assert:
      json:
        - {path: "$.json.events[-1].data.n", equals: 6}
`;

/** A run of `flow` with every artifact, read back as text. */
async function runFlow(
  flow: string,
  args: string[],
  env: Record<string, string>,
  on?: Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-proxy-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
    const out = ["--out-dir", `${dir}/out`, "--report-har", `${dir}/out/run.har`];
    const run = await runBounded(["run", `${dir}/flow.yaml`, ...out, "-v", ...args], {
      env,
      ms: 60_000,
      interruptOn: on,
    });
    const read = (name: string) => Deno.readTextFile(`${dir}/out/${name}`).catch(() => "");
    const json = await read("report.json");
    const steps = json ? JSON.parse(json).flows[0].steps : [];
    const names = ["report.json", "junit.xml", "report.html", "run.log.ndjson", "run.har"];
    const artifacts: Record<string, string> = { console: run.stdout + run.stderr };
    for (const name of names) artifacts[name] = await read(name);
    return { ...run, steps, artifacts };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Certificates for a server only --insecure accepts: self-signed, for another name. */
async function selfSigned(): Promise<{ cert: string; key: string }> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-proxy-certs-" });
  try {
    const files = await makeCertificates(dir);
    return { cert: files["self.pem"], key: files["self.key"] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    "--insecure through --proxy: a self-signed https stream through CONNECT tunnels, reconnections too",
  ignore: !hasOpenssl(),
  fn: async () => {
    const server = startSseServer(await selfSigned());
    const proxy = recordingProxy();
    try {
      const target = server.url.replace("https://", "");
      const run = await runFlow(FLOW, ["--insecure", "--proxy", proxy.url], { BASE: server.url });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(proxy.heads.map((h) => h.split("\r\n")[0]), [
        `CONNECT ${target} HTTP/1.1`,
        `CONNECT ${target} HTTP/1.1`,
        `CONNECT ${target} HTTP/1.1`,
      ]);
      assert.equal(
        server.seen.find((s) => s.path === "/drop" && s.headers["last-event-id"])
          ?.headers["last-event-id"],
        "3",
      );
      // Without --insecure the same proxy's tunnel ends at the certificate check.
      const checked = await runFlow(FLOW, ["--proxy", proxy.url], { BASE: server.url });
      assert.equal(checked.code, 1, checked.stdout);
      assert.match(checked.steps[0].message ?? "", /certificate/i);
    } finally {
      proxy.close();
      await server.close();
    }
  },
});

Deno.test("--insecure through --proxy: an http stream goes to the proxy in absolute form; --no-proxy connects directly", async () => {
  const server = startSseServer();
  const proxy = recordingProxy();
  try {
    const run = await runFlow(FLOW, ["--insecure", "--proxy", proxy.url], { BASE: server.url });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(proxy.heads.map((h) => h.split("\r\n")[0]), [
      `GET ${server.url}/jobs/job-7/events HTTP/1.1`,
      `GET ${server.url}/drop HTTP/1.1`,
      `GET ${server.url}/drop HTTP/1.1`,
    ]);
    // Host names the server, not the proxy, as a client speaking to a proxy sends it.
    const host = server.url.replace("http://", "");
    assert.deepEqual(server.seen.map((s) => s.headers.host), [host, host, host]);
    const direct = await runFlow(FLOW, [
      "--insecure",
      "--proxy",
      proxy.url,
      "--no-proxy",
      "127.0.0.1",
    ], { BASE: server.url });
    assert.equal(direct.code, 0, direct.stdout + direct.stderr);
    assert.equal(proxy.heads.length, 3, "the bypassed run did not use the proxy");
    assert.equal(server.seen.length, 6);
  } finally {
    proxy.close();
    await server.close();
  }
});

const PASSWORD = "s3cr3t-pr0xy-pw";
const WRONG = "wr0ng-pr0xy-pw";

Deno.test({
  name:
    "the proxy's user:password goes as Proxy-Authorization: Basic, masked everywhere; a wrong one is the 407 in a sentence",
  ignore: !hasOpenssl(),
  fn: async () => {
    const secure = startSseServer(await selfSigned());
    const plain = startSseServer();
    const proxy = recordingProxy({ basic: `ada:${PASSWORD}` });
    const credential = btoa(`ada:${PASSWORD}`);
    try {
      const via = (password: string) => `http://ada:${password}@127.0.0.1:${proxy.port}`;
      const tunnelled = await runFlow(FLOW, ["--insecure", "--proxy", via(PASSWORD)], {
        BASE: secure.url,
      });
      assert.equal(tunnelled.code, 0, tunnelled.stdout + tunnelled.stderr);
      const absolute = await runFlow(FLOW, ["--insecure", "--proxy", via(PASSWORD)], {
        BASE: plain.url,
      });
      assert.equal(absolute.code, 0, absolute.stdout + absolute.stderr);
      assert.equal(proxy.heads.length, 6);
      for (const head of proxy.heads) {
        assert.match(head, new RegExp(`^proxy-authorization: Basic ${credential}$`, "im"));
      }
      // The proxy's credential is the proxy's: the server never gets it.
      assert.ok(plain.seen.every((s) => s.headers["proxy-authorization"] === undefined));
      const wrong = await runFlow(FLOW, ["--insecure", "--proxy", via(WRONG)], {
        BASE: secure.url,
      });
      assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
      assert.match(
        wrong.steps[0].message ?? "",
        new RegExp(`the proxy 127\\.0\\.0\\.1:${proxy.port} answered CONNECT .* with 407`),
      );
      for (const run of [tunnelled, absolute, wrong]) {
        for (const [name, text] of Object.entries(run.artifacts)) {
          assert.ok(text.length > 0, `${name} was written`);
          for (const secret of [PASSWORD, WRONG, credential, btoa(`ada:${WRONG}`)]) {
            assert.ok(!text.includes(secret), `${name} holds ${secret}`);
          }
        }
      }
    } finally {
      proxy.close();
      await secure.close();
      await plain.close();
    }
  },
});

Deno.test("--insecure with a step's socks5 proxy: the step is an error naming the proxy", async () => {
  const flow = `name: socks
steps:
  - name: listen
    sse: {url: "https://127.0.0.1:9/events"}
    options: {proxy: "socks5://127.0.0.1:1080"}
`;
  const run = await runFlow(flow, ["--insecure"], {});
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(run.steps[0].status, "error");
  assert.match(
    run.steps[0].message ?? "",
    /An sse step with --insecure goes through an http:\/\/ proxy only, not "socks5:\/\/127\.0\.0\.1:1080"/,
  );
});

const SILENT = `name: silent
steps:
  - name: listen
    sse: {url: "\${ENV.BASE}/jobs/job-7/events", until: "$[?@.event == 'done']"}
    options: {timeout: TIMEOUT}
`;

Deno.test("a proxy that never answers: the step's timeout ends the step, Ctrl-C the run", async () => {
  const proxies = [recordingProxy({ silent: true }), recordingProxy({ silent: true })];
  try {
    const env = { BASE: "https://127.0.0.1:9" };
    const args = (n: number) => ["--insecure", "--proxy", proxies[n].url];
    // 3 s, not less: on a busy machine the CONNECT may take longer than a shorter timeout to be
    // read by the proxy, and the step would then end before the proxy was ever asked.
    const timed = await runFlow(SILENT.replace("TIMEOUT", "3s"), args(0), env);
    assert.equal(timed.killed, false);
    assert.equal(timed.code, 1, timed.stdout + timed.stderr);
    assert.match(timed.steps[0].message ?? "", /did not answer within 3000 ms/);
    assert.equal(proxies[0].heads.length, 1);
    // Far below the step's 10 minutes: only an abort that reaches the CONNECT ends the run in time.
    const interrupted = await runFlow(
      SILENT.replace("TIMEOUT", "10m"),
      args(1),
      env,
      proxies[1].asked,
    );
    assert.equal(interrupted.killed, false, "the run ended on its own after SIGINT");
    assert.equal(interrupted.code, 130, interrupted.stdout + interrupted.stderr);
    assert.equal(interrupted.steps[0].failure_kind, "interrupted");
  } finally {
    for (const proxy of proxies) proxy.close();
  }
});

Deno.test("--max-body bounds a stream read through the proxy", async () => {
  const server = startSseServer();
  const proxy = recordingProxy();
  try {
    const flow = `name: huge\nsteps:\n  - name: big\n    sse: {url: "\${ENV.BASE}/huge"}\n`;
    const run = await runFlow(flow, ["--insecure", "--proxy", proxy.url, "--max-body", "100KiB"], {
      BASE: server.url,
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.steps[0].message ?? "", /The event stream sent more than 102400 bytes/);
    assert.equal(proxy.heads.length, 1);
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test("a proxy nobody listens on is named in the step's error, for https and http targets", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  for (const target of ["https://127.0.0.1:9", "http://127.0.0.1:9"]) {
    const flow = `name: gone\nsteps:\n  - name: listen\n    sse: {url: "${target}/events"}\n`;
    const run = await runFlow(flow, ["--insecure", "--proxy", `http://127.0.0.1:${port}`], {});
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.steps[0].message ?? "",
      new RegExp(
        `failed: the proxy 127\\.0\\.0\\.1:${port} could not be reached \\(.*ECONNREFUSED`,
      ),
      target,
    );
  }
});

Deno.test("--insecure with HTTP_PROXY / HTTPS_PROXY from the environment, as an HTTP step; NO_PROXY hosts directly", async () => {
  const server = startSseServer();
  const proxy = recordingProxy();
  try {
    const env = { BASE: server.url, HTTP_PROXY: proxy.url, https_proxy: "http://127.0.0.1:9" };
    const run = await runFlow(FLOW, ["--insecure"], env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(proxy.heads.length, 3);
    const bypassed = await runFlow(FLOW, ["--insecure"], {
      ...env,
      NO_PROXY: "localhost,127.0.0.1",
    });
    assert.equal(bypassed.code, 0, bypassed.stdout + bypassed.stderr);
    assert.equal(proxy.heads.length, 3, "the NO_PROXY host did not use the proxy");
  } finally {
    proxy.close();
    await server.close();
  }
});

Deno.test("an environment proxy's password is masked", async () => {
  const server = startSseServer();
  const proxy = recordingProxy({ basic: `ada:${PASSWORD}` });
  try {
    const env = { BASE: server.url, HTTP_PROXY: `http://ada:${PASSWORD}@127.0.0.1:${proxy.port}` };
    const run = await runFlow(FLOW.replace("/drop", "/nothing-here"), ["--insecure"], env);
    assert.equal(proxy.heads.length, 2);
    for (const [name, text] of Object.entries(run.artifacts)) {
      assert.ok(!text.includes(PASSWORD), `${name} holds the password`);
      assert.ok(!text.includes(btoa(`ada:${PASSWORD}`)), `${name} holds the credential`);
    }
  } finally {
    proxy.close();
    await server.close();
  }
});
