/** The names of the set environment variables, never their values. */
import assert from "node:assert/strict";
import { envNames } from "../../lib/io/env_names.ts";

Deno.test("envNames lists names only", () => {
  Deno.env.set("FLOWRUN_IO_ENV_NAMES_TEST", "secret-value");
  try {
    const names = envNames();
    assert.ok(names.includes("FLOWRUN_IO_ENV_NAMES_TEST"));
    assert.ok(!names.includes("secret-value"));
  } finally {
    Deno.env.delete("FLOWRUN_IO_ENV_NAMES_TEST");
  }
  assert.ok(!envNames().includes("FLOWRUN_IO_ENV_NAMES_TEST"));
});
