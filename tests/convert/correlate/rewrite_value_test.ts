import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import {
  baseRef,
  bodyValue,
  innerValue,
  stringValue,
} from "../../../lib/convert/correlate/rewrite_value.ts";
import { NOT_A_BODY } from "../../../lib/convert/correlate/state.ts";
import type { Step } from "../../../lib/convert/model.ts";

const step = (name: string) =>
  ({
    name,
    uses: new Set<string>(),
    first: { method: "POST", url: new URL("http://h/items") },
    last: { url: new URL("http://h/items") },
  }) as unknown as Step;
const write = { body: true, mutating: true, login: false, credentials: false };

Deno.test("stringValue: a secret-named field is a required variable named for its step", () => {
  const c = newCorrelator("a");
  assert.equal(
    stringValue(c, "password", "hunter2!", step("create_user"), write),
    "${ENV.CREATE_USER_PASSWORD}",
  );
  assert.equal(c.replaced.secrets, 1);
  // Typed once and sent again (the account's login): one variable, the first one's.
  assert.equal(
    stringValue(c, "password", "hunter2!", step("login"), { ...write, login: true }),
    "${ENV.CREATE_USER_PASSWORD}",
  );
  // Another value typed at a login is its own.
  assert.equal(
    stringValue(c, "password", "tr0ub4dor&3", step("login"), { ...write, login: true }),
    "${ENV.LOGIN_PASSWORD}",
  );
});

Deno.test("stringValue: a name a write creates gets the run id, sent again the same way", () => {
  const c = newCorrelator("a");
  const mixed = stringValue(c, "email", "ann@example.test", step("create_user"), write);
  assert.match(mixed, /\$\{RUN_ID\}/);
  assert.equal(stringValue(c, "q", "ann@example.test", step("find_user"), NOT_A_BODY), mixed);
  assert.equal(stringValue(c, "q", "plain", step("find_user"), NOT_A_BODY), "plain");
});

Deno.test("bodyValue keeps the shape; innerValue keeps what it cannot replace", () => {
  const c = newCorrelator("a");
  assert.deepEqual(bodyValue(c, [1, false, null, "x"], "", step("s"), NOT_A_BODY), [
    1,
    false,
    null,
    "x",
  ]);
  assert.equal(innerValue(c, "first", 10, step("s")), undefined);
  assert.equal(
    innerValue(c, "id", "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912", step("s")),
    "${RANDOM.UUID}",
  );
});

Deno.test("baseRef declares one base-URL var per origin, the first BASE_URL", () => {
  const c = newCorrelator("a");
  assert.equal(baseRef(c, "https://a.test"), "${vars.base_url}");
  assert.equal(baseRef(c, "https://b.test"), "${vars.base_url_2}");
  assert.equal(baseRef(c, "https://a.test"), "${vars.base_url}");
  assert.deepEqual([...c.env.keys()], ["BASE_URL", "BASE_URL_2"]);
});

Deno.test("a field that describes a credential is sent as recorded; one that holds it is asked for", () => {
  // Seen on Node-RED: `authType: basic` beside the password was asked of the user as a secret.
  const c = newCorrelator("a");
  // deno-lint-ignore no-explicit-any
  const step = { name: "create_flow", uses: new Set(), first: { method: "POST" } } as any;
  for (
    const [key, value] of [["authType", "basic"], ["token_url", "https://idp.test/t"], [
      "password_policy",
      "strong",
    ], ["auth_method", "digest"]]
  ) {
    assert.equal(stringValue(c, key, value, step, { ...NOT_A_BODY, body: true }), value, key);
  }
  for (const key of ["password", "authToken", "password_confirmation", "api_key"]) {
    assert.match(
      stringValue(c, key, "hunter2-x", step, { ...NOT_A_BODY, body: true }),
      /\$\{ENV\./,
      key,
    );
  }
});
