import assert from "node:assert/strict";
import { authorization, cookieHeader } from "../../../lib/convert/correlate/credentials.ts";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import type { Step } from "../../../lib/convert/model.ts";
import { recordsOf } from "../../support/har_records.ts";

const step = { name: "s", uses: new Set<string>() } as unknown as Step;

Deno.test("authorization: Basic credentials and a bearer token become variables; the password is a secret", () => {
  const c = newCorrelator("a");
  assert.equal(
    authorization(c, "authorization", `Basic ${btoa("ann:s3cret!")}`, step),
    "Basic ${ENV.BASIC_AUTH}",
  );
  assert.ok(c.secrets.has("s3cret!"));
  assert.equal(
    authorization(c, "authorization", "Bearer abc.def.ghi", step),
    "Bearer ${ENV.API_TOKEN}",
  );
  assert.equal(authorization(c, "proxy-authorization", "tok", step), "${ENV.PROXY_TOKEN}");
});

Deno.test("cookieHeader: a preference as recorded, a logged-in session one variable, dropped beside Authorization", () => {
  const c = newCorrelator("a");
  const [plain, bearer] = recordsOf([
    { url: "https://a.test/a", headers: [["cookie", "theme=dark; session_id=91ab7c3d5e"]] },
    {
      url: "https://a.test/b",
      headers: [["cookie", "session_id=91ab7c3d5e"], ["authorization", "Bearer x"]],
    },
  ]);
  assert.equal(cookieHeader(c, plain, step), "theme=dark; ${ENV.SESSION_COOKIE}");
  assert.equal(cookieHeader(c, bearer, step), undefined);
  assert.equal(c.droppedCookies, 1);
});
