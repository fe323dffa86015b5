/**
 * A guarded check's limit is work, not the wall clock: on a machine so busy
 * that the helper thread hardly runs (a laptop during a build: "schema did
 * not compile within 2 s" on a two-line schema, issue 54), the wait goes on
 * while the helper has used less CPU than the limit, up to a hang guard of
 * ten times the limit. Starvation is stood in for by a task that sleeps: it
 * takes wall time and no CPU, as a starved thread does. The checks run in a
 * process of their own (tests/fixtures/guard/starved.ts): the process CPU
 * clock counts every thread of a process, and a test process runs others.
 * Work that spins stops at its limit: tests/_util/time_guard_test.ts.
 */
import assert from "node:assert/strict";

Deno.test("a check the machine starves finishes past its wall-clock limit; one starved for ten times its limit is given up, saying the machine was busy", async () => {
  const script = new URL("../fixtures/guard/starved.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  const got = JSON.parse(text.trim().split("\n").at(-1)!);
  assert.equal(got.warm, "done");
  assert.equal(got.starved, "done");
  assert.match(got.hung, /^check-timeout: did not finish within 100 ms \(the machine was busy/);
});
