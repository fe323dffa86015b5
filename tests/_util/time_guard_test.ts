import assert from "node:assert/strict";
import {
  giveWayAfterGuards,
  GUARD_BUDGET_MS,
  GuardError,
  prepareGuard,
  runGuarded,
} from "../../lib/_util/time_guard.ts";
import { MatchTimeoutError } from "../../lib/_util/regex.ts";
import { eagerNodeImports } from "../support/imports.ts";

Deno.test("the time guard's modules import no node: builtin up front (it starts Deno's Node layer)", async () => {
  for (const file of ["time_guard.ts", "helper_thread.ts", "guard_error.ts", "regex_shape.ts"]) {
    assert.deepEqual(
      await eagerNodeImports(new URL(`../../lib/_util/${file}`, import.meta.url)),
      [],
      file,
    );
  }
});

Deno.test("runGuarded returns the task's result and stops work past its limit", async () => {
  await prepareGuard();
  const task = { name: "time-guard-test-add", source: "return ({ a, b }) => a + b;", imports: {} };
  assert.equal(runGuarded(task, { a: 40, b: 2 }), 42);
  const spin = {
    name: "time-guard-test-spin",
    source: "return () => { for (;;) {} };",
    imports: {},
  };
  // The limit's own error is the proof: the task spins for ever.
  assert.throws(
    () => runGuarded(spin, null, 150),
    (error) =>
      error instanceof GuardError && error.code === "check-timeout" &&
      error.message === "did not finish within 150 ms" && error.name === "GuardError",
  );
  // The helper starts afresh after a timeout.
  assert.equal(runGuarded(task, { a: 1, b: 1 }), 2);
  await giveWayAfterGuards();
});

Deno.test("work that throws on the helper is check-failed with its message", async () => {
  await prepareGuard();
  const task = {
    name: "time-guard-test-throw",
    source: 'return () => { throw new Error("no"); };',
    imports: {},
  };
  assert.throws(
    () => runGuarded(task, null),
    (error) =>
      error instanceof GuardError && error.code === "check-failed" && error.message === "no",
  );
});

Deno.test("one error class: a match's error is a GuardError named MatchTimeoutError", () => {
  const error = new MatchTimeoutError("regex-timeout", "the match did not finish within 1 s");
  assert.ok(error instanceof GuardError);
  assert.ok(new GuardError("check-failed", "x") instanceof MatchTimeoutError);
  assert.equal(error.name, "MatchTimeoutError");
  assert.equal(new GuardError("check-timeout", "x").name, "GuardError");
  assert.equal(GUARD_BUDGET_MS, 3000);
});
