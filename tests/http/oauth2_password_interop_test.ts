/**
 * `auth: {oauth2: …}` with the password grant (RFC 6749 §4.3), which
 * oidc-provider does not have, against `oauth2-mock-server` (a widely used
 * OAuth2/OIDC test server) run in this process on 127.0.0.1. It signs RS256
 * JWTs; a resource server of ours accepts a token only when its signature
 * checks against the server's JWKS and its `exp` has not passed. The mock
 * checks no credentials itself: its `beforeResponse` hook, the place it
 * offers for that, refuses a wrong password with RFC 6749's invalid_grant.
 */
import assert from "node:assert/strict";
import { OAuth2Server } from "oauth2-mock-server";
import { runCli } from "../support/cli.ts";

const ENV = { API_USER: "alice", API_PASSWORD: "pw-SECRET-1", CLIENT_SECRET: "cs-SECRET+/=:" };

interface Mock {
  issuer: string;
  api: string;
  /** Each token request: its grant, the client's Basic header, what was answered. */
  requests: { grant: string; basic: string | undefined; status: number }[];
  /** Each API request: whether its JWT checked, and its subject. */
  calls: { valid: boolean; sub?: string }[];
  close(): Promise<void>;
}

/** The JWT's signature checked against the JWKS, and its expiry; its claims, else undefined. */
async function verify(token: string, jwksUrl: string) {
  const [head, body, signature] = token.split(".");
  if (!signature) return undefined;
  const decode = (part: string) =>
    Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const header = JSON.parse(new TextDecoder().decode(decode(head)));
  const { keys } = await (await fetch(jwksUrl)).json();
  const jwk = keys.find((k: { kid: string }) => k.kid === header.kid);
  if (!jwk || header.alg !== "RS256") return undefined;
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const key = await crypto.subtle.importKey("jwk", jwk, algorithm, false, ["verify"]);
  const data = new TextEncoder().encode(`${head}.${body}`);
  if (!await crypto.subtle.verify(algorithm, key, decode(signature), data)) return undefined;
  const claims = JSON.parse(new TextDecoder().decode(decode(body)));
  return claims.exp > Date.now() / 1000 ? claims : undefined;
}

async function startMock(ttlSeconds: number): Promise<Mock> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = server.issuer.url!;
  const requests: Mock["requests"] = [];
  server.service.on("beforeTokenSigning", (token: { payload: Record<string, number> }) => {
    token.payload.exp = token.payload.iat + ttlSeconds;
  });
  server.service.on(
    "beforeResponse",
    (
      response: { body: Record<string, unknown>; statusCode: number },
      req: { body: Record<string, string>; headers: Record<string, string> },
    ) => {
      if (req.body.grant_type === "password" && req.body.password !== ENV.API_PASSWORD) {
        response.statusCode = 400;
        response.body = {
          error: "invalid_grant",
          error_description: "Wrong user name or password",
        };
      } else if (response.body.access_token) {
        response.body.expires_in = ttlSeconds;
      }
      requests.push({
        grant: req.body.grant_type,
        basic: req.headers.authorization,
        status: response.statusCode,
      });
    },
  );
  const calls: Mock["calls"] = [];
  const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    const claims = await verify(token, `${issuer}/jwks`).catch(() => undefined);
    calls.push({ valid: claims !== undefined, sub: claims?.sub });
    if (!claims) return Response.json({ error: "invalid_token" }, { status: 401 });
    return Response.json({ sub: claims.sub, scope: claims.scope });
  });
  return {
    issuer,
    api: `http://127.0.0.1:${api.addr.port}`,
    requests,
    calls,
    async close() {
      await api.shutdown();
      await server.stop();
    },
  };
}

async function run(mock: Mock, env: Record<string, string>, steps = 1) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-oauth2-password-" });
  try {
    await Deno.writeTextFile(
      `${dir}/auth.yaml`,
      `auth:
  oauth2:
    grant_type: password
    token_url: ${mock.issuer}/token
    client_id: app
    client_secret: "\${ENV.CLIENT_SECRET}"
    username: "\${ENV.API_USER}"
    password: "\${ENV.API_PASSWORD}"
    scope: api:read
`,
    );
    const list = Array.from({ length: steps }, (_, i) =>
      `  - name: me ${i}
    request: {url: "${mock.api}/me"}
    options: {delay: 300ms}
    assert: {status: 200}
`);
    await Deno.writeTextFile(`${dir}/f.yaml`, `name: password\nsteps:\n${list.join("")}`);
    const r = await runCli(
      ["run", `${dir}/f.yaml`, "--auth-file", `${dir}/auth.yaml`, "--report-json", `${dir}/r.json`],
      { env },
    );
    return { ...r, json: await Deno.readTextFile(`${dir}/r.json`).catch(() => "") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertNoSecret(r: { stdout: string; stderr: string; json: string }) {
  for (const text of [r.stdout, r.stderr, r.json]) {
    assert.ok(!text.includes("SECRET"), `a secret in ${text}`);
    assert.ok(!/eyJ[\w-]+\.eyJ/.test(text), `a JWT in ${text}`);
  }
}

Deno.test("oauth2-mock-server: the password grant's JWT passes a JWKS check, renewed mid-run with the refresh token it gave", async () => {
  const mock = await startMock(2);
  try {
    const r = await run(mock, ENV, 7);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const grants = mock.requests.map((q) => `${q.grant} ${q.status}`);
    assert.equal(grants[0], "password 200");
    // A 2 s token is renewed a second before it runs out, and the mock counts expiry in whole
    // seconds: on a loaded machine a request may still reach it just after, be refused, and be
    // sent once more with a token fetched then (one more refresh, one more call).
    assert.ok(grants.length >= 2 && grants.length <= 4, grants.join());
    assert.ok(grants.slice(1).every((g) => g === "refresh_token 200"), grants.join());
    // RFC 6749 §2.3.1: the secret form-encoded, then Basic.
    const basic = `Basic ${btoa("app:cs-SECRET%2B%2F%3D%3A")}`;
    assert.ok(mock.requests.every((q) => q.basic === basic), JSON.stringify(mock.requests));
    const valid = mock.calls.filter((c) => c.valid).length;
    assert.equal(valid, 7, JSON.stringify(mock.calls));
    assert.ok(mock.calls.length <= 8, JSON.stringify(mock.calls));
    // Each refused call is sent again at once with a fresh token.
    mock.calls.forEach((c, i) => assert.ok(c.valid || mock.calls[i + 1]?.valid, `call ${i}`));
    assert.equal(mock.calls[0].sub, "alice");
    assertNoSecret(r);
  } finally {
    await mock.close();
  }
});

Deno.test("oauth2-mock-server: a refused password is the step's error quoting invalid_grant and the token URL", async () => {
  const mock = await startMock(3600);
  try {
    const r = await run(mock, { ...ENV, API_PASSWORD: "wrong-SECRET" });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `The OAuth2 token request to ${mock.issuer}/token failed: it answered 400 invalid_grant \\(Wrong user name or password\\)\\.`,
      ),
    );
    assert.match(r.stdout, /f\.yaml:\d+:\d+/);
    assert.deepEqual(mock.calls, []);
    assertNoSecret(r);
  } finally {
    await mock.close();
  }
});
