/**
 * `oauth2` with the `device_code` grant (RFC 8628) through the CLI against
 * the demo API's IdP, which approves a device by itself on its second poll:
 * one device authorization for three flows at --jobs 2, each request an
 * entry of the reports, the one line for a person on standard error, the
 * device code and the tokens in no output (reports parsed back), a refused
 * device, an interrupt while polling, and the load-time problems of the block.
 */
import assert from "node:assert/strict";
import { TIMING } from "../support/timing.ts";
import { XMLParser } from "fast-xml-parser";
import { startDemoApi } from "../../examples/demo_api.ts";
import { runCli, spawnCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";
import { readReports, reportOptions } from "../support/run_reports.ts";

/** The demo's device codes, access and refresh tokens: `dc-`, `at-`, `rt-` and a UUID. */
const DEMO_SECRET = /\b(dc|at|rt)-[0-9a-f]{8}-[0-9a-f]{4}-/;

const authFile = (base: string, extra: string, grant = "device_code") =>
  `auth:
  oauth2:
    grant_type: ${grant}
    device_authorization_url: ${base}/oauth2/device_authorization
    token_url: ${base}/oauth2/token
    client_id: demo-client
    client_secret: "\${ENV.CLIENT_SECRET}"
    scope: items:read
    extra: {${extra}}
`;

const flow = (base: string, name: string) =>
  `name: ${name}
steps:
  - name: me
    request: {url: "${base}/oauth2/me"}
    assert:
      status: 200
      json:
        - {path: $.json.client_id, equals: demo-client}
        - {path: $.json.scope, equals: "items:read"}
`;

const ENV = { CLIENT_SECRET: "demo secret+/=:" };

/** The reports, "" for one not written (an interrupted run). */
const outputs = (dir: string) => readReports(dir, true);

Deno.test("device code against the demo IdP: pending, then a token shared by three flows; nothing secret anywhere", async () => {
  const api = await startDemoApi();
  try {
    const files: Record<string, string> = {
      // The RFC's URN is a grant_type too.
      "auth.yaml": authFile(
        api.url,
        'interval: "1"',
        "urn:ietf:params:oauth:grant-type:device_code",
      ),
      "a.yaml": flow(api.url, "a"),
      "b.yaml": flow(api.url, "b"),
      "c.yaml": flow(api.url, "c"),
    };
    await withFiles(files, async (dir) => {
      const r = await runCli([
        "run",
        `${dir}/a.yaml`,
        `${dir}/b.yaml`,
        `${dir}/c.yaml`,
        "--auth-file",
        `${dir}/auth.yaml`,
        "--jobs",
        "2",
        "-vv",
        ...reportOptions(dir),
      ], { env: ENV });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      // Two polls, counted in the report below rather than timed (8 s was missed at a load of
      // 20); the interval between them is tests/http/oauth2_device_test.ts's.
      // One line for a person, once for the run: the page, the user code, the bound.
      const lines = r.stderr.split("\n").filter((l) => l.startsWith("OAuth2 device authorization"));
      assert.equal(lines.length, 1, r.stderr);
      const page = `${api.url}/oauth2/device`;
      assert.match(
        lines[0],
        new RegExp(
          `^OAuth2 device authorization: to approve, open ${page} and enter the code [A-Z]{4}-[A-Z]{4} ` +
            `\\(or open ${page}\\?user_code=[A-Z]{4}-[A-Z]{4}\\); flowrun polls ${api.url}/oauth2/token ` +
            "every 1 s for up to 300 s\\.$",
        ),
      );
      const out = await outputs(dir);
      const report = JSON.parse(out.json);
      const names = report.flows.flatMap((f: { steps: { name: string }[] }) =>
        f.steps.map((s) => s.name)
      );
      assert.deepEqual(names.filter((n: string) => n.startsWith("auth ›")), [
        "auth › oauth2 device authorization",
        "auth › oauth2 token (authorization_pending)",
        "auth › oauth2 token",
      ]);
      // Three steps and the three OAuth2 requests: counts stay honest.
      assert.equal(report.totals.steps.total, 6);
      assert.equal(report.totals.steps.passed, 6);
      const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
        out.junit,
      );
      const suites = [junit.testsuites.testsuite].flat();
      const cases = suites.flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as {
        name: string;
      }[];
      assert.ok(cases.some((c) => c.name === "auth › oauth2 token (authorization_pending)"));
      assert.ok(cases.some((c) => c.name === "auth › oauth2 device authorization"));
      for (const [where, text] of Object.entries({ ...out, stdout: r.stdout, stderr: r.stderr })) {
        assert.ok(text.length > 0, `${where} was written`);
        const leak = DEMO_SECRET.exec(text);
        assert.ok(!leak, `${leak?.[0]} in ${where}`);
        assert.ok(!text.includes("demo secret"), `the client secret in ${where}`);
      }
    });
  } finally {
    await api.close();
  }
});

Deno.test("a device the person refuses fails the step, quoting access_denied", async () => {
  const api = await startDemoApi();
  try {
    const files = {
      "f.yaml": flow(api.url, "f").replace(
        "steps:",
        authFile(api.url, 'interval: "1", approve_after: "0", deny: "true"') + "steps:",
      ),
    };
    await withFiles(files, async (dir) => {
      const r = await runCli(["run", `${dir}/f.yaml`, ...reportOptions(dir)], { env: ENV });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const steps = JSON.parse((await outputs(dir)).json).flows[0].steps;
      const me = steps.find((s: { name: string }) => s.name === "me");
      assert.equal(me.status, "error");
      assert.match(
        me.message,
        /^The OAuth2 device authorization was denied: the token request to http:\/\/127\.0\.0\.1:\d+\/oauth2\/token answered 400 access_denied \(The user refused the device\.\) after 1 poll over \d+ s: the person asked to approve the device refused it\.$/,
      );
      assert.deepEqual(steps.map((s: { status: string }) => s.status), [
        "passed",
        "error",
        "error",
      ]);
      assert.ok(!DEMO_SECRET.test(r.stdout + r.stderr));
    });
  } finally {
    await api.close();
  }
});

Deno.test(`SIGINT while polling: the run stops within a second or two, its reports written ${TIMING}`, async () => {
  const api = await startDemoApi();
  try {
    const files = {
      "f.yaml": flow(api.url, "f").replace(
        "steps:",
        authFile(api.url, 'interval: "1", approve_after: "10"') + "steps:",
      ),
    };
    await withFiles(files, async (dir) => {
      const child = spawnCli(["run", `${dir}/f.yaml`, ...reportOptions(dir)], { env: ENV });
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      try {
        // Wait for the line for a person, then for the first poll to be under way.
        const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
        let stderr = "";
        while (!stderr.includes("OAuth2 device authorization")) {
          const { value, done } = await reader.read();
          if (done) break;
          stderr += value;
        }
        assert.match(stderr, /OAuth2 device authorization: to approve, open /);
        await new Promise((r) => setTimeout(r, 1500));
        const interrupted = performance.now();
        child.kill("SIGINT");
        const rest = (async () => {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            stderr += value;
          }
        })();
        const [status] = await Promise.all([child.status, rest, child.stdout.cancel()]);
        const ms = performance.now() - interrupted;
        assert.equal(status.code, 130, stderr);
        assert.ok(ms < 2000, `${ms} ms after SIGINT`);
        const out = await outputs(dir);
        const steps = JSON.parse(out.json).flows[0].steps;
        const me = steps.find((s: { name: string }) => s.name === "me");
        assert.equal(me.status, "skipped");
        assert.equal(me.failure_kind, "interrupted");
        assert.match(me.message, /^Interrupted \(SIGINT\) before the step finished\.$/);
        // The device authorization and the polls sent before the interrupt are reported.
        assert.equal(steps[0].name, "auth › oauth2 device authorization");
        assert.ok(
          steps.some((s: { name: string }) =>
            s.name === "auth › oauth2 token (authorization_pending)"
          ),
        );
        assert.match(out.junit, /<testsuites/);
        for (const text of [out.json, out.junit, out.html, out.log, stderr]) {
          assert.ok(!DEMO_SECRET.test(text));
        }
      } finally {
        clearTimeout(killer);
      }
    });
  } finally {
    await api.close();
  }
});

Deno.test("load: a device_code block without device_authorization_url, or with one that is not http(s), is a positioned problem", async () => {
  const block = (url: string) =>
    `name: f
auth:
  oauth2:
    grant_type: device_code
    token_url: https://idp.example/oauth/token
${url}    client_id: app
steps:
  - name: s
    request: {url: "https://api.example/x"}
`;
  await withFiles({
    "missing.yaml": block(""),
    "ftp.yaml": block("    device_authorization_url: ftp://idp.example/device\n"),
    "urn.yaml": block("    device_authorization_url: https://idp.example/device\n").replace(
      "grant_type: device_code",
      "grant_type: urn:ietf:params:oauth:grant-type:device_code",
    ),
  }, async (dir) => {
    const r = await runCli([
      "validate",
      `${dir}/missing.yaml`,
      `${dir}/ftp.yaml`,
      `${dir}/urn.yaml`,
    ]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const text = r.stdout + r.stderr;
    assert.match(
      text,
      /missing\.yaml:4:17 error\[missing-key\]: Missing key "device_authorization_url" in "oauth2" of the flow: the device_code grant asks for its device code there\./,
    );
    assert.match(text, /device_authorization_url: https:\/\/idp\.example\/oauth\/device\/code/);
    assert.match(
      text,
      /ftp\.yaml:6:31 error\[bad-url\]: Expected "device_authorization_url" of "oauth2" of the flow to be an http or https URL, got "ftp:\/\/idp\.example\/device"\./,
    );
    assert.ok(!text.includes("urn.yaml"), text);
  });
});

Deno.test("an IdP that echoes the device code in its error: masked in every output", async () => {
  const deviceCode = "ECHOED-DEVICE-CODE-0123456789abcdef";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    if (new URL(req.url).pathname === "/device") {
      return Response.json({
        device_code: deviceCode,
        user_code: "QQQQ-WWWW",
        verification_uri: "https://idp.example/activate",
        expires_in: "60",
        interval: "1",
      });
    }
    return Response.json({
      error: "expired_token",
      error_description: `device code ${form.get("device_code")} is past its lifetime`,
    }, { status: 400 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const f = flow(base, "f").replace(
      "steps:",
      `auth:
  oauth2:
    grant_type: device_code
    device_authorization_url: ${base}/device
    token_url: ${base}/token
    client_id: app
steps:`,
    );
    await withFiles({ "f.yaml": f }, async (dir) => {
      const r = await runCli(["run", `${dir}/f.yaml`, "-vv", ...reportOptions(dir)]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const out = await outputs(dir);
      const me = JSON.parse(out.json).flows[0].steps.find((s: { name: string }) => s.name === "me");
      assert.match(
        me.message,
        /^The OAuth2 device code expired before it was approved: the token request to .*\/token answered 400 expired_token \(device code \*\*\* is past its lifetime\) after 1 poll over \d+ s\./,
      );
      for (const [where, text] of Object.entries({ ...out, stdout: r.stdout, stderr: r.stderr })) {
        assert.ok(!text.includes(deviceCode), `the device code in ${where}`);
        assert.ok(
          !text.includes(deviceCode.slice(0, 16)),
          `a piece of the device code in ${where}`,
        );
      }
      assert.match(r.stderr, /open https:\/\/idp\.example\/activate and enter the code QQQQ-WWWW;/);
    });
  } finally {
    await server.shutdown();
  }
});
