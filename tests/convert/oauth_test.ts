import assert from "node:assert/strict";
import { parseHar } from "../../lib/convert/har_model.ts";
import { locationParams, planOauth, s256 } from "../../lib/convert/oauth.ts";
import { recordsOf } from "../support/har_records.ts";

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

Deno.test("s256 is RFC 7636's challenge", () => {
  assert.equal(s256(verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
});

Deno.test("planOauth makes the verifier, its challenge and the state fresh vars", () => {
  const records = recordsOf([
    {
      url: `https://id.test/authorize?response_type=code&client_id=c&state=st4te&code_challenge=${
        s256(verifier)
      }&code_challenge_method=S256`,
    },
    {
      method: "POST",
      url: "https://id.test/token",
      mime: "application/x-www-form-urlencoded",
      body: `grant_type=authorization_code&code=abc&code_verifier=${verifier}`,
    },
  ]);
  const plan = planOauth(records, (name) => name);
  assert.equal(plan.replaced.get(verifier), "pkce_code_verifier");
  assert.equal(plan.replaced.get("st4te"), "oauth_state");
  const vars = new Map(plan.vars);
  assert.equal(s256(vars.get("pkce_code_verifier")!), vars.get("pkce_code_challenge"));
});

Deno.test("locationParams gives the code a redirect hands out, nothing else", () => {
  const { records } = parseHar(
    JSON.stringify({
      log: {
        entries: [{
          request: { method: "POST", url: "https://id.test/consent" },
          response: {
            status: 302,
            headers: [{ name: "Location", value: "https://app.test/cb?code=Zk9x_2bQ-r8&state=ab" }],
          },
        }],
      },
    }),
    [],
  );
  assert.deepEqual(locationParams(records[0]), [["code", "Zk9x_2bQ-r8"]]);
  assert.deepEqual(locationParams(recordsOf([{ url: "https://app.test/" }])[0]), []);
});
