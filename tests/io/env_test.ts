/** The environment is read in one place. */
import assert from "node:assert/strict";
import { readEnv } from "../../lib/io/env.ts";

Deno.test("readEnv gives a variable's value, and undefined when unset", () => {
  Deno.env.set("FLOWRUN_IO_ENV_TEST", "x=1");
  try {
    assert.equal(readEnv("FLOWRUN_IO_ENV_TEST"), "x=1");
  } finally {
    Deno.env.delete("FLOWRUN_IO_ENV_TEST");
  }
  assert.equal(readEnv("FLOWRUN_IO_ENV_TEST"), undefined);
});
