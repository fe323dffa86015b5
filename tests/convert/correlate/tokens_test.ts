import assert from "node:assert/strict";
import { correlate } from "../../../lib/convert/correlate/pipeline.ts";
import { withTokens } from "../../../lib/convert/correlate/tokens.ts";
import { recordsOf } from "../../support/har_records.ts";

const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";

Deno.test("withTokens replaces a produced token inside longer text and escapes the rest", () => {
  const records = recordsOf([
    { method: "POST", url: "https://a.test/login", body: "{}", json: { access_token: token } },
    { url: "https://a.test/me", headers: [["x-session", `v1 ${token}`]] },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  const out = withTokens(c, `a ${token} costs \${5}`, c.steps[1]);
  assert.equal(out, `a \${steps.login.capture.access_token} costs $\${5}`);
});
