/**
 * The HTTP client's settings are checked before anything is sent, and a
 * proxy password never shows. A CA file that is no certificate, `--cert`
 * and `--key` the wrong way round, a key that is not the certificate's, an
 * encrypted key, a proxy URL the runtime cannot use: each is one message
 * naming the option, exit 2, no stack trace — from the command line in
 * `run`, and from a flow's options in `validate` and `run` alike. A proxy
 * password with a space, `"`, a non-ASCII letter or an `@` is sent whole
 * (through the runtime's client and through `--insecure`'s), and no part of
 * it, nor of a request URL's password, is in any artifact, in any encoding.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../support/tls.ts";

const ignore = !hasOpenssl();

/** An HTTP server that is also a proxy for absolute-form requests, recording their credentials. */
function recordingProxy() {
  const credentials: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const auth = req.headers.get("proxy-authorization");
    if (auth?.startsWith("Basic ")) {
      const bytes = Uint8Array.from(atob(auth.slice(6)), (c) => c.charCodeAt(0));
      credentials.push(new TextDecoder().decode(bytes));
    }
    return Response.json({ via: "proxy", host: req.headers.get("host") });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    credentials,
    close: () => server.shutdown(),
  };
}

const FLOW = (url: string, options = "") =>
  `name: net\n${options}steps:\n  - name: get\n    request: {url: "${url}/"}\n    assert: {status: 200}\n`;

Deno.test({
  name: "bad CA files, client certificates, keys and proxy URLs are refused before sending",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-netopts-" });
    await makeCertificates(dir);
    await new Deno.Command("openssl", {
      args: ["pkey", "-in", "client.key", "-aes256", "-passout", "pass:pw", "-out", "enc.key"],
      cwd: dir,
      stdout: "null",
      stderr: "null",
    }).output();
    await Deno.writeTextFile(
      `${dir}/garbage.pem`,
      "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
    );
    const api = recordingProxy();
    try {
      await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW(api.url));
      const cases: { args: string[]; options: string; code: string; says: RegExp }[] = [
        {
          args: ["--cacert", `${dir}/client.key`],
          options: "{ca_cert: client.key}",
          code: "bad-cacert",
          says: /"[^"]*client\.key" holds a private key, not a certificate\./,
        },
        {
          args: ["--cacert", `${dir}/ca.pem`, "--cacert", `${dir}/garbage.pem`],
          options: "{ca_cert: [ca.pem, garbage.pem]}",
          code: "bad-cacert",
          says: /"[^"]*garbage\.pem" holds a certificate that cannot be read/,
        },
        {
          args: ["--cert", `${dir}/client.key`, "--key", `${dir}/client.pem`],
          options: "{client_cert: client.key, client_key: client.pem}",
          code: "bad-cert",
          says: /holds a private key and .* a certificate: the two are swapped\./,
        },
        {
          args: ["--cert", `${dir}/client.pem`, "--key", `${dir}/self.key`],
          options: "{client_cert: client.pem, client_key: self.key}",
          code: "bad-key",
          says: /"[^"]*self\.key" is not the private key of the certificate in /,
        },
        {
          args: ["--cert", `${dir}/client.pem`, "--key", `${dir}/enc.key`],
          options: "{client_cert: client.pem, client_key: enc.key}",
          code: "bad-key",
          says: /"[^"]*enc\.key" is encrypted with a passphrase/,
        },
        {
          args: ["--proxy", "ftp://127.0.0.1:21"],
          options: '{proxy: "ftp://127.0.0.1:21"}',
          code: "bad-url",
          says: /"ftp:\/\/127\.0\.0\.1:21" is not a proxy URL/,
        },
        {
          args: ["--proxy", "http://u:secretpw@[::1"],
          options: '{proxy: "http://u:secretpw@[::1"}',
          code: "bad-proxy",
          says: /"http:\/\/u:\*\*\*@\[::1" is not a URL\./,
        },
        {
          args: ["--proxy", "socks5://127.0.0.1:1080", "--insecure"],
          options: '{proxy: "socks5://127.0.0.1:1080", insecure: true}',
          code: "bad-proxy",
          says:
            /is an socks5:\/\/ proxy, but requests with insecure TLS go through http:\/\/ proxies only/,
        },
      ];
      for (const c of cases) {
        const label = c.args.join(" ");
        const run = await runCli([
          "run",
          `${dir}/flow.yaml`,
          "--report-json",
          `${dir}/r.json`,
          ...c.args,
        ]);
        const cliCode = c.code === "bad-url" ? "bad-proxy" : c.code;
        assert.equal(run.code, 2, `${label}: ${run.stdout}${run.stderr}`);
        assert.match(run.stderr, new RegExp(`error\\[${cliCode}\\]: `), label);
        assert.match(run.stderr, c.says, label);
        assert.match(run.stderr, /hint: /, label);
        assert.doesNotMatch(run.stderr + run.stdout, /\n\s+at |secretpw/, label);

        // The same settings in a flow's options: validate and run agree, with a position.
        await Deno.writeTextFile(`${dir}/own.yaml`, FLOW(api.url, `options: ${c.options}\n`));
        for (const command of ["validate", "run"]) {
          const got = await runCli([command, `${dir}/own.yaml`]);
          const text = got.stdout + got.stderr;
          assert.equal(got.code, 2, `${command} ${c.options}: ${text}`);
          assert.match(text, new RegExp(`own\\.yaml:2:\\d+ error\\[${c.code}\\]`), c.options);
          assert.match(text, c.says, `${command} ${c.options}`);
          // (The excerpt of the flow's own line shows what the file holds.)
          const message = text.split("\n").find((line) => line.includes(`error[${c.code}]`));
          assert.doesNotMatch(text, /\n\s+at /, c.options);
          assert.doesNotMatch(message ?? "", /secretpw/, c.options);
        }
      }
      assert.equal(api.credentials.length, 0, "nothing was sent");
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** A password with an `@`, a space, `"`, `'` and a non-ASCII letter; its parts are markers. */
const PASSWORD = `Head9x@Mid8y "wörd'Tail7z`;
const MARKERS = ["Head9x", "Mid8y", "Tail7z", "Req5x", "Req6y"];

Deno.test("a proxy password with @, a space, a quote or ü is sent whole, through both clients", async () => {
  const proxy = recordingProxy();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-proxypw-" });
  try {
    // Hosts no resolver knows: only the proxy can answer for them.
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW("http://api.flowrun.invalid"));
    const proxyUrl = `http://ann:${PASSWORD}@127.0.0.1:${proxy.port}`;
    for (const extra of [[], ["--insecure"]]) {
      const run = await runCli(["run", `${dir}/flow.yaml`, "--proxy", proxyUrl, ...extra]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
    }
    // Percent-encoded, it means the same.
    const encoded = `http://ann:${encodeURIComponent(PASSWORD)}@127.0.0.1:${proxy.port}`;
    const run = await runCli(["run", `${dir}/flow.yaml`, "--proxy", encoded]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(proxy.credentials, Array(3).fill(`ann:${PASSWORD}`));
  } finally {
    await proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every form a reader could turn back into `text`. */
function encodings(text: string): string[] {
  const utf8 = new TextEncoder().encode(text);
  const html = text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("'", "&#39;")
    .replaceAll("<", "&lt;");
  return [
    text,
    encodeURIComponent(text),
    encodeURIComponent(text).toLowerCase(),
    new URL(`http://a:${text}@h/`).password,
    JSON.stringify(text).slice(1, -1),
    JSON.stringify(text).slice(1, -1).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
    html,
    `'${text.replaceAll("'", `'\\''`)}'`,
    btoa(String.fromCharCode(...utf8)),
    btoa(String.fromCharCode(...new TextEncoder().encode(`ann:${text}`))),
  ];
}

Deno.test("no part of a proxy's or a request URL's password is in any artifact, in any encoding", async () => {
  const proxy = recordingProxy();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-userinfo-" });
  try {
    // A failing step prints the reproduce line (with --proxy) everywhere, and its request URL,
    // which has a password of its own, in its curl line and exchange.
    await Deno.writeTextFile(
      `${dir}/flow.yaml`,
      `name: leak
steps:
  - name: with userinfo
    request: {url: "http://bob:Req5x@Req6y@api.flowrun.invalid/"}
    assert: {status: 201}
`,
    );
    const summary = `${dir}/summary.md`;
    await Deno.writeTextFile(summary, "");
    const run = await runCli([
      "run",
      `${dir}/flow.yaml`,
      "--proxy",
      `http://ann:${PASSWORD}@127.0.0.1:${proxy.port}`,
      "--report-json",
      `${dir}/report.json`,
      "--report-junit",
      `${dir}/junit.xml`,
      "--report-html",
      `${dir}/report.html`,
      "--manifest",
      `${dir}/manifest.json`,
      "--log-file",
      `${dir}/run.log`,
      "-v",
    ], { env: { GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: "true" } });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /--proxy '?http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+/, "reproduce line");
    // The curl line goes through the same proxy, its password masked too.
    assert.match(
      run.stdout,
      /curl --proxy 'http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+' 'http:\/\/bob:\*\*\*@api\.flowrun\.invalid\/'/,
    );
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
    assert.ok(
      manifest.command.includes(`http://ann:***@127.0.0.1:${proxy.port}`),
      JSON.stringify(manifest.command),
    );
    const artifacts: [string, string][] = [["stdout", run.stdout], ["stderr", run.stderr]];
    for (const name of ["report.json", "junit.xml", "report.html", "manifest.json", "run.log"]) {
      artifacts.push([name, await Deno.readTextFile(`${dir}/${name}`)]);
    }
    artifacts.push(["step summary", await Deno.readTextFile(summary)]);
    const forms = [PASSWORD, ...MARKERS, "Req5x@Req6y"].flatMap(encodings);
    for (const [name, text] of artifacts) {
      for (const form of forms) {
        assert.ok(!text.includes(form), `${name} holds ${JSON.stringify(form)}`);
      }
    }
  } finally {
    await proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a client the runtime refuses at the first request fails that step; the run goes on", async () => {
  // The library takes network settings unchecked: what the CLI refuses at start, a caller can
  // still hand over. Each request's step fails with the reason; the run ends with every result.
  const { loadFlow } = await import("../../lib/load/load_flow.ts");
  const { runFlows } = await import("../../lib/run/flows.ts");
  const api = recordingProxy();
  try {
    const flows = ["a", "b"].map((name) =>
      loadFlow(FLOW(api.url).replace("name: net", `name: ${name}`), `${name}.yaml`).flow!
    );
    const garbage = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";
    const result = await runFlows(flows, { network: { caCerts: [garbage] }, timeoutMs: 5000 });
    assert.equal(result.flows.length, 2);
    for (const flow of result.flows) {
      assert.equal(flow.status, "error");
      assert.match(JSON.stringify(flow.steps[0]), /the HTTP client .* could not be made/);
    }
  } finally {
    await api.close();
  }
});
