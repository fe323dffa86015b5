/** A system error's message without Deno's error number and repeated path. */
import assert from "node:assert/strict";
import { plainReason } from "../../lib/io/_reason.ts";

Deno.test("plainReason drops the os error number, the operation and the final period", () => {
  assert.equal(
    plainReason(new Error("no space left on device (os error 28): write '/x'")),
    "No space left on device",
  );
  assert.equal(plainReason(new Error("Broken pipe.\n")), "Broken pipe");
  assert.equal(plainReason("odd: "), "Odd");
  assert.equal(plainReason(new Error("")), "Unknown error");
  assert.equal(plainReason(undefined), "Undefined");
});
