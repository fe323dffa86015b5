import assert from "node:assert/strict";
import { internalError } from "../../lib/_util/internal_error.ts";

Deno.test("an internal error is one line of at most 300 characters, naming what was being done", () => {
  assert.equal(
    internalError("checking", new TypeError("x\ny")),
    "internal error while checking: TypeError: x",
  );
  const long = internalError("reading", "z".repeat(400));
  assert.equal(long, `internal error while reading: ${"z".repeat(300)}…`);
});
