import assert from "node:assert/strict";
import { authorization, cookieHeader } from "../../../lib/convert/correlate/credentials.ts";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import type { Step } from "../../../lib/convert/model.ts";
import { toYaml, ymap } from "../../../lib/convert/yaml_out.ts";
import { recordsOf } from "../../support/har_records.ts";

const step = { name: "s", uses: new Set<string>(), records: [] } as unknown as Step;

Deno.test("authorization: Basic credentials become the step's auth, a bearer token a variable; the password is a secret", () => {
  const c = newCorrelator("a");
  const basicStep = { uses: new Set() } as unknown as Step;
  assert.equal(
    authorization(c, "authorization", `Basic ${btoa("ann:s3cret!")}`, basicStep),
    undefined,
  );
  assert.equal(
    toYaml([], ymap([["auth", basicStep.auth]])),
    "auth:\n  basic:\n    username: ann\n    password: ${ENV.BASIC_PASSWORD}\n",
  );
  assert.ok(c.secrets.has("s3cret!"));
  assert.ok(!c.secrets.has("ann"), "a user name is an identifier, not a secret");
  // A token alone (no user, no password, or not text) stays one variable of the header's value.
  for (const token of [btoa(":s3cret!"), btoa("key-only:"), "bm90IHV0Zjj/"]) {
    const header = authorization(c, "authorization", `Basic ${token}`, step);
    assert.match(header ?? "", /^Basic \$\{ENV\.BASIC_AUTH(_\d)?\}$/);
    assert.equal(step.auth, undefined);
  }
  assert.equal(
    authorization(c, "proxy-authorization", `Basic ${btoa("p:q")}`, step),
    "Basic ${ENV.PROXY_BASIC_AUTH}",
  );
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
