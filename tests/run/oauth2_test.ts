/**
 * `oauth2` through the CLI against a token endpoint and an API the test
 * starts: the client's credentials encoded as RFC 6749 §2.3.1 says, one
 * token fetch for many flows at --jobs 4, a token that expires mid-run
 * fetched again, a 401 answered by one refresh and one retry, the token
 * never in any output, token endpoint errors naming the URL, and the token
 * request as its own entry in the reports.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";
import { readReports, reportOptions } from "../support/run_reports.ts";

interface IdpOptions {
  expiresIn?: number;
  /** Tokens the API refuses once, as if revoked. */
  revokeFirst?: boolean;
  /** What the token endpoint answers instead of a token. */
  fail?: () => Response;
  refresh?: boolean;
  /** Answers in the form encoding, whatever the client accepts (as older providers do). */
  formEncoded?: boolean;
}

/** A token endpoint and an API that takes only its live tokens. */
function idp(options: IdpOptions = {}) {
  const tokenRequests: { auth: string | null; form: URLSearchParams }[] = [];
  const live = new Map<string, number>();
  let issued = 0;
  let revoked = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await req.text());
      tokenRequests.push({ auth: req.headers.get("authorization"), form });
      if (options.fail) return options.fail();
      const token = `tok-${++issued}-SECRETVALUE`;
      live.set(token, Date.now() + (options.expiresIn ?? 3600) * 1000);
      if (options.formEncoded) {
        const form = new URLSearchParams({ access_token: token, scope: "read,write" });
        form.set("token_type", "bearer");
        return new Response(form.toString(), {
          headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        });
      }
      return Response.json({
        access_token: token,
        token_type: "Bearer",
        expires_in: options.expiresIn ?? 3600,
        ...(options.refresh ? { refresh_token: `refresh-${issued}-SECRET` } : {}),
      });
    }
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const until = live.get(token);
    if (options.revokeFirst && !revoked && until) {
      revoked = true;
      live.delete(token);
    }
    if (!live.has(token) || Date.now() > until!) {
      return Response.json({ error: "invalid_token" }, { status: 401 });
    }
    return Response.json({ ok: true, path: url.pathname });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { base, tokenRequests, close: () => server.shutdown() };
}

const AUTH_FILE = (base: string, extra = "") =>
  `auth:
  oauth2:
    grant_type: client_credentials
    token_url: ${base}/token
    client_id: "\${ENV.CLIENT_ID}"
    client_secret: "\${ENV.CLIENT_SECRET}"
    scope: read write
${extra}`;

const ENV = { CLIENT_ID: "my app", CLIENT_SECRET: "s3cr3t+/=:é" };

async function run(files: Record<string, string>, args: string[], env = ENV) {
  return await withFiles(files, async (dir) => {
    const reports = [...reportOptions(dir), "--manifest", `${dir}/m.json`];
    const cli = await runCli(
      ["run", ...args.map((a) => a.replaceAll("DIR", dir)), ...reports],
      { env },
    );
    const outputs = {
      ...await readReports(dir, true),
      manifest: await Deno.readTextFile(`${dir}/m.json`).catch(() => ""),
    };
    return { ...cli, outputs };
  });
}

function flow(base: string, name: string, steps = 2): string {
  const list = Array.from(
    { length: steps },
    (_, i) =>
      `  - name: get${i}\n    request: {url: "${base}/items/${i}"}\n    assert: {status: 200}\n`,
  );
  return `name: ${name}\nsteps:\n${list.join("")}`;
}

function assertNoToken(r: { stdout: string; stderr: string; outputs: Record<string, string> }) {
  for (const [where, text] of Object.entries({ ...r.outputs, out: r.stdout, err: r.stderr })) {
    if (where !== "err") assert.ok(text.length > 0, `${where} was written`);
    const leak = /tok-\d+-SECRETVALUE|refresh-\d+-SECRET|pw.SECRET/.exec(text);
    assert.ok(!leak, `${leak} in ${where}`);
    assert.ok(!text.includes("s3cr3t"), `the client secret in ${where}`);
  }
}

Deno.test("one token for eight flows at --jobs 4, the client's credentials as RFC 6749 §2.3.1 encodes them", async () => {
  const api = idp();
  try {
    const files: Record<string, string> = { "auth.yaml": AUTH_FILE(api.base) };
    for (let i = 0; i < 8; i++) files[`f${i}.yaml`] = flow(api.base, `flow ${i}`);
    const paths = Object.keys(files).filter((f) => f !== "auth.yaml").map((f) => `DIR/${f}`);
    const r = await run(files, [...paths, "--auth-file", "DIR/auth.yaml", "--jobs", "4", "-vv"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(api.tokenRequests.length, 1);
    const [token] = api.tokenRequests;
    // "my app" → "my+app"; "s3cr3t+/=:é" → "s3cr3t%2B%2F%3D%3A%C3%A9", then base64.
    assert.equal(token.auth, `Basic ${btoa("my+app:s3cr3t%2B%2F%3D%3A%C3%A9")}`);
    assert.equal(token.form.toString(), "grant_type=client_credentials&scope=read+write");
    // The token request is its own entry, once, in the flow that made it.
    const report = JSON.parse(r.outputs.json);
    const entries = report.flows.flatMap((f: { steps: { name: string }[] }) => f.steps)
      .filter((s: { name: string }) => s.name === "auth › oauth2 token");
    assert.equal(entries.length, 1);
    assert.match(r.outputs.junit, /auth › oauth2 token/);
    assert.match(r.outputs.log, /auth › oauth2 token|auth \\u203a oauth2 token/);
    assert.match(r.outputs.html, /auth › oauth2 token|auth \\u203a oauth2 token/);
    // Request counts stay honest: 16 steps and the one token request.
    assert.equal(report.totals.steps.total, 17);
    assert.match(r.stdout, /auth › oauth2 token/);
    assertNoToken(r);
  } finally {
    await api.close();
  }
});

Deno.test("a token that expires mid-run is fetched again before it runs out", async () => {
  // expires_in 1 s: renewed 500 ms early; five steps 300 ms apart outlive two tokens.
  const api = idp({ expiresIn: 1 });
  try {
    const steps = Array.from(
      { length: 5 },
      (_, i) =>
        `  - name: get${i}\n    request: {url: "${api.base}/items/${i}"}\n    assert: {status: 200}\n    options: {delay: 300ms}\n`,
    ).join("");
    const files = { "auth.yaml": AUTH_FILE(api.base), "f.yaml": `name: long\nsteps:\n${steps}` };
    const r = await run(files, ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(
      api.tokenRequests.length >= 2 && api.tokenRequests.length <= 3,
      `${api.tokenRequests.length}`,
    );
    assertNoToken(r);
  } finally {
    await api.close();
  }
});

Deno.test("a 401 fetches one new token and sends the request once more; a refresh token is used", async () => {
  const api = idp({ revokeFirst: true, refresh: true });
  try {
    const files = { "auth.yaml": AUTH_FILE(api.base), "f.yaml": flow(api.base, "revoked", 1) };
    const r = await run(files, ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(api.tokenRequests.length, 2);
    assert.equal(api.tokenRequests[1].form.get("grant_type"), "refresh_token");
    assert.equal(api.tokenRequests[1].form.get("refresh_token"), "refresh-1-SECRET");
    const step = JSON.parse(r.outputs.json).flows[0].steps.find((s: { name: string }) =>
      s.name === "get0"
    );
    assert.equal(step.attempts, 2);
    assertNoToken(r);
  } finally {
    await api.close();
  }
});

Deno.test("a token endpoint error fails the step, naming the token URL and the error, never the secret", async () => {
  const cases: [string, () => Response, RegExp][] = [
    [
      "4xx",
      () =>
        Response.json({ error: "invalid_client", error_description: "Unknown client" }, {
          status: 401,
        }),
      /failed: it answered 401 invalid_client \(Unknown client\)/,
    ],
    [
      "not JSON",
      () => new Response("<html>oops</html>", { headers: { "content-type": "text/html" } }),
      /not a JSON object \(text\/html\)/,
    ],
    [
      "too large",
      () => Response.json({ access_token: "x".repeat(70_000) }),
      /its answer is larger than the 64 KiB a token response may be/,
    ],
    [
      "a redirect",
      () =>
        new Response(null, { status: 302, headers: { location: "http://elsewhere.test/token" } }),
      /does not follow a token endpoint's redirects/,
    ],
  ];
  for (const [what, fail, message] of cases) {
    const api = idp({ fail });
    try {
      const files = { "auth.yaml": AUTH_FILE(api.base), "f.yaml": flow(api.base, "f", 1) };
      const r = await run(files, ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml"]);
      assert.equal(r.code, 1, what + r.stdout + r.stderr);
      const steps = JSON.parse(r.outputs.json).flows[0].steps;
      const get = steps.find((s: { name: string }) => s.name === "get0");
      assert.equal(get.status, "error", what);
      assert.ok(get.message.includes(`${api.base}/token`), get.message);
      assert.match(get.message, message, what);
      assert.equal(steps[0].name, "auth › oauth2 token");
      assert.equal(steps[0].status, "error");
      assertNoToken(r);
    } finally {
      await api.close();
    }
  }
  // Nothing listens: a network error.
  const files = {
    "auth.yaml": AUTH_FILE("http://127.0.0.1:9"),
    "f.yaml": flow("http://127.0.0.1:9", "f", 1),
  };
  const r = await run(files, ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml"]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /The OAuth2 token request to http:\/\/127\.0\.0\.1:9\/token got no response/,
  );
});

Deno.test("the password grant with the client in the body; the flow's auth over the run's", async () => {
  const api = idp();
  try {
    const f = `name: f
auth:
  oauth2:
    grant_type: password
    token_url: ${api.base}/token
    client_id: "\${ENV.CLIENT_ID}"
    client_secret: "\${ENV.CLIENT_SECRET}"
    client_auth: body
    username: "\${ENV.USER_NAME}"
    password: "\${ENV.USER_PASSWORD}"
    audience: https://api.example
    extra: {resource: "https://api.example/v1"}
steps:
  - name: get0
    request: {url: "${api.base}/items/0"}
    assert: {status: 200}
`;
    const files = { "auth.yaml": AUTH_FILE("http://127.0.0.1:9"), "f.yaml": f };
    const env = { ...ENV, USER_NAME: "ann", USER_PASSWORD: "pw SECRET&1" };
    const r = await run(files, ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml"], env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [token] = api.tokenRequests;
    assert.equal(token.auth, null);
    assert.deepEqual([...token.form], [
      ["grant_type", "password"],
      ["audience", "https://api.example"],
      ["username", "ann"],
      ["password", "pw SECRET&1"],
      ["resource", "https://api.example/v1"],
      ["client_id", "my app"],
      ["client_secret", "s3cr3t+/=:é"],
    ]);
    assertNoToken(r);
  } finally {
    await api.close();
  }
});

Deno.test("each distinct configuration has its own token; a flow with auth: none fetches none", async () => {
  const api = idp();
  try {
    const own = (scope: string) =>
      `name: ${scope}
auth:
  oauth2:
    grant_type: client_credentials
    token_url: ${api.base}/token
    client_id: "\${ENV.CLIENT_ID}"
    client_secret: "\${ENV.CLIENT_SECRET}"
    scope: ${scope}
steps:
  - name: get0
    request: {url: "${api.base}/items/0"}
    assert: {status: 200}
  - name: get1
    request: {url: "${api.base}/items/1"}
    assert: {status: 200}
`;
    const files = {
      "a.yaml": own("alpha"),
      "b.yaml": own("beta"),
      "a2.yaml": own("alpha").replace("name: alpha", "name: alpha again"),
      "none.yaml":
        `name: none\nauth: none\nsteps:\n  - name: open\n    request: {url: "${api.base}/open"}\n    assert: {status: 401}\n`,
    };
    const paths = Object.keys(files).map((f) => `DIR/${f}`);
    const r = await run(files, [...paths, "--jobs", "2"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.tokenRequests.map((t) => t.form.get("scope")).sort(), ["alpha", "beta"]);
  } finally {
    await api.close();
  }
});

Deno.test("a token answered in the form encoding (GitHub's without Accept, older providers always) is read", async () => {
  const api = idp({ formEncoded: true });
  try {
    const r = await run(
      { "auth.yaml": AUTH_FILE(api.base), "f.yaml": flow(api.base, "f", 2) },
      ["DIR/f.yaml", "--auth-file", "DIR/auth.yaml", "-vv"],
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(api.tokenRequests.length, 1);
    assertNoToken(r);
  } finally {
    await api.close();
  }
});
