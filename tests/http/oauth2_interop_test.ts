/**
 * `auth: {oauth2: …}` against an OAuth2 server flowrun was not built from:
 * panva's oidc-provider (a certified OpenID provider), run in this process on
 * 127.0.0.1. A resource server of ours accepts a token only while the
 * provider's introspection says it is active. Each grant the provider has
 * (client_credentials, refresh_token, device_code) passes through the CLI with
 * the client authenticated as the provider registered it (client_secret_basic,
 * or client_secret_post with `client_auth: body`); a two-second token is
 * fetched again mid-run; a wrong secret is the provider's invalid_client,
 * quoted with the token URL; a token revoked at the provider is a 401 answered
 * by a new token. The device_code grant is oauth2_device_interop_test.ts.
 */
import assert from "node:assert/strict";
import { approveDevice, CLIENT_SECRET, type Idp, startIdp } from "../support/oidc_provider.ts";
import { assertNoSecret, assertRenewed, ENV, flow, run, STEPS } from "../support/oauth2_interop.ts";

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
    assertRenewed(idp, idp.tokens.length);
    assert.ok(idp.tokens.every((t) => JSON.stringify(t) === JSON.stringify(grant)));
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

Deno.test("oidc-provider: a token revoked at the provider mid-run is a 401, answered by one new token and one retry", async () => {
  const idp = await startIdp(3600, true);
  try {
    const r = await run(
      idp,
      'grant_type: client_credentials\nclient_id: app\nclient_secret: "${ENV.CLIENT_SECRET}"\nscope: api:read',
      flow(idp, 3),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // The first token served one request, was revoked, met a 401; the second served the rest.
    assert.deepEqual(idp.calls.map((c) => c.active), [true, false, true, true]);
    assert.equal(idp.tokens.length, 2);
    const steps = JSON.parse(r.json).flows[0].steps as { name: string; attempts?: number }[];
    assert.deepEqual(steps.map((s) => s.name), [
      "auth › oauth2 token",
      "me 0",
      "auth › oauth2 token",
      "me 1",
      "me 2",
    ]);
    // The step's attempts count the refused request and the one sent again.
    assert.deepEqual(steps.map((s) => s.attempts ?? 1), [1, 1, 1, 2, 1]);
    assertNoSecret(r, []);
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
    assertRenewed(idp, idp.tokens.length);
    assert.ok(idp.tokens.every((t) => t.grant === "refresh_token" && t.ok && t.via === "basic"));
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
