/**
 * A `send` item's `after: {message: PATH}`: sent once the message it answers
 * arrived (since the item before it was sent), however many others came
 * first; and `until` as a list: receiving stops once each condition held, in
 * whatever order the messages came. Against a kernel-like stand-in that
 * sends 0–3 extra status messages before its answer and answers on two
 * channels in random order (kernel_stand_in.ts), replayed several times; and
 * a count (`after: 4`, the recording's) is shown to stall on it.
 */
import assert from "node:assert/strict";
import { kernelStandIn, seeded } from "./kernel_stand_in.ts";
import { runFlow } from "./run_flow.ts";
import { AFTER_INFO_REPLY, BOTH_ANSWERS, kernelFlow } from "./kernel_flow.ts";

const flow = kernelFlow;
const BY_MESSAGE = AFTER_INFO_REPLY;
const BOTH = BOTH_ANSWERS;

Deno.test("websocket after: {message}: the cell is sent once info_reply came and both answers are received, whatever came first (6 replays)", async () => {
  const seed = Date.now();
  const kernel = kernelStandIn(seeded(seed));
  try {
    for (let n = 0; n < 6; n++) {
      const run = await runFlow(flow(BY_MESSAGE, BOTH), { env: { KERNEL: kernel.origin } });
      assert.equal(run.code, 0, `seed ${seed}, replay ${n}: ${run.stdout}`);
      assert.equal(run.steps[0].status, "passed");
    }
    assert.equal(kernel.sent.length, 6);
  } finally {
    await kernel.close();
  }
});

Deno.test("websocket after: N, the control: with fewer status messages than counted the cell is never sent", async () => {
  const kernel = kernelStandIn(seeded(1), 0);
  try {
    const run = await runFlow(flow("4", BOTH).replace("wait: 5s", "wait: 1s"), {
      env: { KERNEL: kernel.origin },
    });
    assert.equal(run.code, 1, run.stdout);
    assert.deepEqual(kernel.sent[0], ["info_reply"]);
    const until = run.steps[0].assertions!.find((a) => a.path === "until")!;
    // The message names both conditions that never held.
    assert.match(
      until.message,
      /"\$\[\?@\.msg_type == 'execute_result'\]" and "\$\[\?@\.msg_type == 'execute_reply'\]" did not hold in the 1 message/,
    );
  } finally {
    await kernel.close();
  }
});

Deno.test("websocket until as a list stops only once each held: one condition would stop at the first answer", async () => {
  const kernel = kernelStandIn(seeded(7), 2);
  try {
    const one = `"$[?@.msg_type == 'execute_reply' || @.msg_type == 'execute_result']"`;
    const run = await runFlow(flow(BY_MESSAGE, one), { env: { KERNEL: kernel.origin } });
    // Stopped at whichever answer came first: the other one's check fails.
    assert.equal(run.code, 1, run.stdout);
    const both = await runFlow(flow(BY_MESSAGE, BOTH), { env: { KERNEL: kernel.origin } });
    assert.equal(both.code, 0, both.stdout);
  } finally {
    await kernel.close();
  }
});

Deno.test("websocket after: {message} and until lists are checked when the flow loads", async () => {
  const bad = flow(`{ mesage: "$[?@.msg_type == 'info_reply']" }`, "[]");
  const run = await runFlow(bad, { env: { KERNEL: "127.0.0.1:9" } });
  assert.equal(run.code, 2, run.stdout + run.stderr);
  const out = run.stdout + run.stderr;
  assert.match(out, /mesage/);
  assert.match(out, /"until" of a websocket step to list at least one condition, got \[\]/);
  const never = flow(`{ message: "$.msg_type" }`, BOTH);
  const second = await runFlow(never, { env: { KERNEL: "127.0.0.1:9" } });
  assert.match(second.stdout + second.stderr, /after "\$\.msg_type" can never hold/);
});
