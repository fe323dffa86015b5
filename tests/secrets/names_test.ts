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

Deno.test("passphrases, one-time codes, PINs and signatures are secret names; words ending alike are not", () => {
  // Seen: passphrase, key_passphrase, otp, pin and sig values shown in reports and written
  // literally by convert har.
  for (
    const key of [
      "passphrase",
      "key_passphrase",
      "keyPassphrase",
      "otp",
      "totp",
      "pin",
      "sig",
      "passcode",
      "mfa",
    ]
  ) {
    assert.ok(isSecretKey(key), key);
    assert.ok(isSecretName(key.toUpperCase()), key);
  }
  assert.ok(isSecretName("otp_code") && isSecretHeader("x-otp"));
  for (const name of ["spin", "laptop", "config", "pinned", "signal", "pin_id", "otp_length"]) {
    assert.ok(!isSecretKey(name), name);
  }
  for (const name of ["SPIN", "LAPTOP", "PINNED", "SIGNAL", "DESIGN"]) {
    assert.ok(!isSecretName(name), name);
  }
});
