import assert from "node:assert/strict";
import { findLogins, freshOauthValues } from "../../../lib/convert/correlate/logins.ts";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { recordsOf } from "../../support/har_records.ts";

const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";

Deno.test("a record whose token a later request sends is a login; one whose token is unused is not", () => {
  const records = recordsOf([
    { method: "POST", url: "https://a.test/session", body: "{}", json: { token } },
    { url: "https://a.test/me", headers: [["authorization", `Bearer ${token}`]] },
    {
      method: "POST",
      url: "https://a.test/keys",
      body: "{}",
      json: { api_token: "unused-token-123" },
    },
  ]);
  const c = newCorrelator("a");
  findLogins(c, records);
  assert.deepEqual([...c.loginRecords], [records[0]]);
});

Deno.test("an answer that echoes a token the client sent already issues nothing: no login", () => {
  // phpMyAdmin's every AJAX answer repeats the page's token in `params`: 15 XHRs were named login_N.
  const page = "3e2d72287a2d6d2f527c595e69507e28";
  const records = recordsOf([
    { method: "POST", url: "https://a.test/session", body: "{}", json: { token } },
    {
      method: "POST",
      url: `https://a.test/config?token=${page}`,
      body: "{}",
      headers: [["authorization", `Bearer ${token}`]],
      json: { params: { token: page }, echoed: token },
    },
    { url: `https://a.test/me?token=${page}`, headers: [["authorization", `Bearer ${token}`]] },
  ]);
  const c = newCorrelator("a");
  findLogins(c, records);
  assert.deepEqual([...c.loginRecords].map((r) => r.url.pathname), ["/session"]);
});

Deno.test("freshOauthValues makes a PKCE verifier a var, and a secret", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const records = recordsOf([
    {
      url:
        `https://idp.test/authorize?response_type=code&client_id=app&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=st4te-91ab`,
    },
    {
      method: "POST",
      url: "https://idp.test/token",
      mime: "application/x-www-form-urlencoded",
      body: `grant_type=authorization_code&code=abc&code_verifier=${verifier}`,
    },
  ]);
  const c = newCorrelator("a");
  freshOauthValues(c, records);
  assert.ok(c.oauthFresh.has(verifier), JSON.stringify([...c.oauthFresh]));
  assert.ok(c.secrets.has(verifier));
  assert.ok(c.vars.length > 0);
});
