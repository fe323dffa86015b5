import assert from "node:assert/strict";
import {
  isSecretCaptureName,
  isSecretHeader,
  isSecretKey,
  isSecretName,
} from "../../lib/secrets/names.ts";

Deno.test("the name rules: secret-looking names, headers, captures and keys", () => {
  for (const name of ["API_TOKEN", "PASSWORD", "client_secret", "AUTH"]) {
    assert.ok(isSecretName(name), name);
  }
  for (const name of ["HOME", "USER", "BASE_URL"]) assert.ok(!isSecretName(name), name);
  assert.ok(
    isSecretHeader("Authorization") && isSecretHeader("x-api-key") && isSecretHeader("cookie"),
  );
  assert.ok(!isSecretHeader("content-type"));
  assert.ok(isSecretCaptureName("token") && isSecretCaptureName("accessToken"));
  assert.ok(!isSecretCaptureName("id"));
  assert.ok(isSecretKey("password") && isSecretKey("access_token") && !isSecretKey("name"));
});
