/**
 * `--repeat`'s memory, counted in bytes, not timed: a child process with
 * `--expose-gc` runs a flow 500 and 5,000 times with the fold and without,
 * and reports what each run leaves on the heap while its result is held
 * (repeat_memory_child.ts), the least of three runs each: one run alone
 * once measured 600 KB more, a collection's timing or a cache filling up. With the fold, an iteration costs the 16 bytes
 * of its durations; without, the runner keeps every iteration's result.
 */
import assert from "node:assert/strict";
import { root } from "../../support/cli.ts";

Deno.test("a folded iteration leaves 16 bytes on the heap, a kept one hundreds: counted with and without the fold", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${root}deno.json`,
      "--v8-flags=--expose-gc",
      `${root}tests/cli/run/repeat_memory_child.ts`,
      "500",
      "5000",
    ],
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const heap: Record<string, number> = JSON.parse(new TextDecoder().decode(output.stdout));
  const perIteration = (kind: string) => (heap[`${kind} 5000`] - heap[`${kind} 500`]) / 4500;
  // The durations (8 bytes for the step, 8 for the total) and nothing else an iteration grows:
  // read 27 bytes most runs, once 50 in CI beside other files (a collection's timing); a kept
  // result reads over 200, so the bound stays well under it.
  assert.ok(
    perIteration("folded") < 80,
    `folded: ${perIteration("folded")} B an iteration (${JSON.stringify(heap)})`,
  );
  // The same measurement sees a kept result (a few hundred bytes each): it can fail.
  assert.ok(
    perIteration("plain") > 150,
    `plain: ${perIteration("plain")} B an iteration (${JSON.stringify(heap)})`,
  );
});
