import assert from "node:assert/strict";
import { interruptCode, listenForInterrupts } from "../../cli/signals.ts";

Deno.test("an interrupt's exit code follows its signal", () => {
  assert.equal(interruptCode(new AbortController().signal), undefined);
  for (const [reason, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    const controller = new AbortController();
    controller.abort(reason);
    assert.equal(interruptCode(controller.signal), code);
  }
});

Deno.test("listening gives unaborted signals, and settling or disposing aborts nothing", () => {
  const interrupts = listenForInterrupts();
  try {
    assert.equal(interrupts.signal.aborted, false);
    assert.equal(interrupts.writes.aborted, false);
    interrupts.settle();
    assert.equal(interrupts.signal.aborted, false);
  } finally {
    interrupts.dispose();
  }
  assert.equal(interrupts.writes.aborted, false);
});
