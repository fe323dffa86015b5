import assert from "node:assert/strict";
import {
  isCredentialCookie,
  isCursorKey,
  isIdKey,
  isSecretShaped,
  isUuid,
  looksLikeId,
  looksLikeToken,
  mixRunId,
} from "../../lib/convert/values.ts";

Deno.test("ids: UUIDs, mixed letters and digits, and numbers under id-like keys", () => {
  assert.ok(isUuid("6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912") && !isUuid("6f1c2b7e"));
  assert.ok(isIdKey("order_id") && isIdKey("id") && !isIdKey("count"));
  assert.ok(looksLikeId("ref", "itm_3fa2c1") && looksLikeId("user_id", 1234));
  assert.ok(!looksLikeId("ref", "/a/b1c2d3") && !looksLikeId("ref", "https://x.test/1"));
  assert.ok(!looksLikeId("when", "2026-11-21") && !looksLikeId("v", "1.2.3.4"));
  assert.ok(!looksLikeId("title", "hello world 1"));
});

Deno.test("tokens, secrets, credential cookies and cursors", () => {
  assert.ok(
    looksLikeToken("access_token", "abcdefgh12") && !looksLikeToken("access_token", "short"),
  );
  assert.ok(!looksLikeToken("name", "abcdefgh12"));
  assert.ok(isSecretShaped("c-4f9a2e71b8") && !isSecretShaped("/dashboard"));
  assert.ok(
    isCredentialCookie("sessionid", "91ab7c3d5e6f") && !isCredentialCookie("theme", "dark"),
  );
  assert.ok(isCursorKey("next_cursor") && !isCursorKey("name"));
});

Deno.test("mixRunId puts the run id in an e-mail's local part and a name's number", () => {
  const lit = (t: string) => t;
  assert.equal(mixRunId("email", "ann@example.test", lit), "ann-${RUN_ID}@example.test");
  assert.match(mixRunId("name", "Widget 1234", lit) ?? "", /\$\{RUN_ID\}/);
  assert.equal(mixRunId("name", "Widget", lit), undefined);
});
