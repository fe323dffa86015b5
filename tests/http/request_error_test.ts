import assert from "node:assert/strict";
import { reasonOf, RequestError } from "../../lib/http/request_error.ts";

Deno.test("a request error carries its code and message", () => {
  const error = new RequestError("timeout", "No complete response within 10 ms.");
  assert.equal(error.name, "RequestError");
  assert.equal(error.code, "timeout");
  assert.ok(error instanceof Error);
});

Deno.test("an interrupt is named by its signal's reason when it is a name", () => {
  assert.equal(reasonOf(AbortSignal.abort("SIGTERM")), "SIGTERM");
  assert.equal(reasonOf(AbortSignal.abort(new Error("x"))), "interrupted");
});
