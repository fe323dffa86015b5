/**
 * `auth: {oauth2: …}` against an OAuth2 server flowrun was not built from:
 * panva's oidc-provider (a certified OpenID provider), run in this process on
 * 127.0.0.1. A resource server of ours accepts a token only while the
 * provider's introspection says it is active. Each grant the provider has
 * (client_credentials, refresh_token, device_code) passes through the CLI with
 * the client authenticated as the provider registered it (client_secret_basic,
 * or client_secret_post with `client_auth: body`); a two-second token is
 * fetched again mid-run; a wrong secret is the provider's invalid_client,
 * quoted with the token URL; the device is approved through the provider's
 * own pages, as a person would, while flowrun polls.
 */
import assert from "node:assert/strict";
import { runCli, spawnCli } from "../support/cli.ts";
import { approveDevice, CLIENT_SECRET, type Idp, startIdp } from "../support/oidc_provider.ts";

const ENV = { CLIENT_SECRET, WRONG_SECRET: "not-the-SECRET-value" };
/** Requests 300 ms apart that outlive a 2 s token. */
const STEPS = 7;

const authFile = (idp: Idp, lines: string) =>
  `auth:
  oauth2:
    token_url: ${idp.issuer}/token
${lines.replace(/^/gm, "    ")}
`;

/** `steps` GETs of the protected API, each `delay` after the last. */
const flow = (idp: Idp, steps = 1, delay = "0ms") =>
  `name: protected
steps:
${
    Array.from({ length: steps }, (_, i) =>
      `  - name: me ${i}
    request: {url: "${idp.api}/me"}
    options: {delay: ${delay}}
    assert:
      status: 200
      json:
        - {path: $.json.scope, contains: "api:read"}
`).join("")
  }`;

async function withDir<T>(files: Record<string, string>, body: (dir: string) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-oauth2-interop-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    return await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function run(idp: Idp, auth: string, flowText: string, env: Record<string, string> = ENV) {
  return await withDir({ "auth.yaml": authFile(idp, auth), "f.yaml": flowText }, async (dir) => {
    const r = await runCli(
      ["run", `${dir}/f.yaml`, "--auth-file", `${dir}/auth.yaml`, "--report-json", `${dir}/r.json`],
      { env },
    );
    const json = await Deno.readTextFile(`${dir}/r.json`).catch(() => "");
    return { ...r, json };
  });
}

function assertNoSecret(r: { stdout: string; stderr: string; json: string }, tokens: string[]) {
  for (const text of [r.stdout, r.stderr, r.json]) {
    assert.ok(!text.includes("SECRET"), `a client secret in ${text}`);
    for (const token of tokens) assert.ok(!text.includes(token), `a token in ${text}`);
  }
}

Deno.test("oidc-provider: client_credentials with client_secret_basic, the token fetched again mid-run", async () => {
  const idp = await startIdp(2);
  try {
    const r = await run(
      idp,
      'grant_type: client_credentials\nclient_id: app\nclient_secret: "${ENV.CLIENT_SECRET}"\nscope: api:read',
      flow(idp, STEPS, "300ms"),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // Seven requests 300 ms apart outlive a 2 s token: it is fetched again before the provider
    // ends it. The provider counts expiry in whole seconds (exp = the issuing second, rounded
    // down, + 2), so a token it gives lives 1 to 2 s; renewed 200 ms early, as before, a
    // request between its end and 1.8 s met a dead token (401, then a retry).
    const grant = { grant: "client_credentials", client: "app", ok: true, via: "basic" };
    assert.ok(idp.tokens.length >= 2 && idp.tokens.length <= 3, JSON.stringify(idp.tokens));
    assert.ok(idp.tokens.every((t) => JSON.stringify(t) === JSON.stringify(grant)));
    assert.deepEqual(idp.calls.map((c) => c.active), Array(STEPS).fill(true));
    assert.ok(idp.calls.every((c) => c.client === "app" && c.scope === "api:read"));
    assertNoSecret(r, []);
  } finally {
    await idp.close();
  }
});

Deno.test("oidc-provider: client_auth: body is the provider's client_secret_post", async () => {
  const idp = await startIdp();
  try {
    const r = await run(
      idp,
      'grant_type: client_credentials\nclient_id: app-post\nclient_secret: "${ENV.CLIENT_SECRET}"\nclient_auth: body\nscope: api:read',
      flow(idp),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(idp.tokens, [
      { grant: "client_credentials", client: "app-post", ok: true, via: "body" },
    ]);
    assert.equal(idp.calls[0].client, "app-post");
  } finally {
    await idp.close();
  }
});

Deno.test("oidc-provider: a wrong client secret is the step's error naming the token URL and invalid_client", async () => {
  const idp = await startIdp();
  try {
    const r = await run(
      idp,
      'grant_type: client_credentials\nclient_id: app\nclient_secret: "${ENV.WRONG_SECRET}"\nscope: api:read',
      flow(idp),
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `The OAuth2 token request to ${idp.issuer}/token failed: it answered 401 invalid_client \\(client authentication failed\\)`,
      ),
    );
    assert.match(r.stdout, /f\.yaml:\d+:\d+/, "the error is positioned at the step");
    assert.deepEqual(idp.calls, [], "the API was not called without a token");
    assertNoSecret(r, []);
    assert.ok(!r.stdout.includes("not-the-"), "the wrong secret is masked too");
  } finally {
    await idp.close();
  }
});

/** Reads a child's stream until `pattern` matches (at most `ms`), returning the match and all read. */
async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, ms: number) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => reader.cancel(), ms);
  try {
    for (let read = 0; read < 10_000; read++) {
      const match = pattern.exec(text);
      if (match) return { match, rest: reader };
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    throw new Error(`${pattern} never came on the stream: ${text}`);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("oidc-provider: device_code, approved through the provider's pages while flowrun polls, then renewed with its refresh token", async () => {
  const idp = await startIdp(2);
  try {
    await withDir({
      "auth.yaml": authFile(
        idp,
        `grant_type: device_code\ndevice_authorization_url: ${idp.issuer}/device/auth\nclient_id: app\nclient_secret: "\${ENV.CLIENT_SECRET}"\nscope: openid offline_access api:read`,
      ),
      "f.yaml": flow(idp, STEPS, "300ms"),
    }, async (dir) => {
      const child = spawnCli(
        [
          "run",
          `${dir}/f.yaml`,
          "--auth-file",
          `${dir}/auth.yaml`,
          "--report-json",
          `${dir}/r.json`,
        ],
        { env: ENV },
      );
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      try {
        const stdout = new Response(child.stdout).text();
        // The one line flowrun writes for a person: the page to open and the code to type there.
        const { match, rest } = await readUntil(
          child.stderr,
          /open (\S+) and enter the code (\S+) .*?every (\d+) s/,
          15_000,
        );
        assert.equal(match[1], `${idp.issuer}/device`);
        // oidc-provider sends no interval: RFC 8628's 5 s.
        assert.equal(match[3], "5");
        const approval = await approveDevice(match[1], match[2]);
        assert.match(approval.last, /Sign-in Success/, approval.pages.join("\n"));
        const stderr = (async () => {
          let text = "";
          for (let i = 0; i < 10_000; i++) {
            const chunk = await rest.read();
            if (chunk.done) return text;
            text += chunk.value;
          }
          return text;
        })();
        const status = await child.status;
        const r = { stdout: await stdout, stderr: await stderr, code: status.code };
        const json = await Deno.readTextFile(`${dir}/r.json`);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        // The device code grant once, then refresh_token grants (no second device line).
        const grants = idp.tokens.map((t) => `${t.grant} ${t.ok} ${t.via}`);
        assert.equal(
          grants[0],
          "urn:ietf:params:oauth:grant-type:device_code true basic",
          grants.join(),
        );
        assert.ok(grants.length >= 2 && grants.length <= 3, grants.join());
        assert.ok(grants.slice(1).every((g) => g === "refresh_token true basic"), grants.join());
        assert.deepEqual(idp.calls.map((c) => c.active), Array(STEPS).fill(true));
        assert.ok(!r.stderr.includes("enter the code"), "one line for a person, not two");
        assertNoSecret({ ...r, json }, []);
        const steps = JSON.parse(json).flows[0].steps.map((s: { name: string }) => s.name);
        assert.ok(steps.includes("auth › oauth2 device authorization"), steps.join());
      } finally {
        clearTimeout(killer);
        try {
          child.kill("SIGKILL");
        } catch {
          // Already ended.
        }
      }
    });
  } finally {
    await idp.close();
  }
});

/** A refresh token the provider gives a device a person approved (the test asks, not flowrun). */
async function refreshTokenOf(idp: Idp): Promise<string> {
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${idp.issuer}${path}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`app:${encodeURIComponent(CLIENT_SECRET)}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(form),
    }).then((r) => r.json());
  const device = await post("/device/auth", { scope: "openid offline_access api:read" });
  await approveDevice(device.verification_uri, device.user_code);
  const token = await post("/token", {
    grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    device_code: device.device_code,
  });
  assert.equal(typeof token.refresh_token, "string", JSON.stringify(token));
  return token.refresh_token;
}

Deno.test("oidc-provider: refresh_token grant with a refresh token the provider issued, renewed mid-run", async () => {
  const idp = await startIdp(2);
  try {
    const refresh = await refreshTokenOf(idp);
    idp.tokens.length = 0;
    const r = await run(
      idp,
      'grant_type: refresh_token\nrefresh_token: "${ENV.REFRESH}"\nclient_id: app\nclient_secret: "${ENV.CLIENT_SECRET}"',
      flow(idp, STEPS, "300ms"),
      { ...ENV, REFRESH: refresh },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(idp.tokens.length >= 2 && idp.tokens.length <= 3, JSON.stringify(idp.tokens));
    assert.ok(idp.tokens.every((t) => t.grant === "refresh_token" && t.ok && t.via === "basic"));
    assert.deepEqual(idp.calls.map((c) => c.active), Array(STEPS).fill(true));
    assertNoSecret(r, [refresh]);
    // A refresh token the provider does not know: invalid_grant, quoted with the token URL.
    const bad = await run(
      idp,
      'grant_type: refresh_token\nrefresh_token: "${ENV.REFRESH}"\nclient_id: app\nclient_secret: "${ENV.CLIENT_SECRET}"',
      flow(idp),
      { ...ENV, REFRESH: "not-a-known-refresh-token" },
    );
    assert.equal(bad.code, 1);
    assert.match(
      bad.stdout,
      new RegExp(`token request to ${idp.issuer}/token failed: it answered 400 invalid_grant`),
    );
  } finally {
    await idp.close();
  }
});
