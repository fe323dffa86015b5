/**
 * A run's HAR report (`--report-har`) writes a websocket step's frames in
 * the order they went: an item with `after: {message: PATH}` after the
 * reply it awaited, not at the start as a count of 0 would place it; so
 * `convert har` on that HAR gives the turn back (run → HAR → convert → run).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../../support/cli.ts";
import { kernelStandIn, seeded } from "./kernel_stand_in.ts";
import { AFTER_INFO_REPLY, BOTH_ANSWERS, kernelFlow } from "./kernel_flow.ts";

const FLOW = kernelFlow(AFTER_INFO_REPLY, BOTH_ANSWERS, false);

Deno.test("websocket after: {message}: the HAR report places the item after the reply it awaited, and converts back to the same turn", async () => {
  const kernel = kernelStandIn(seeded(3), 2);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-har-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    const env = { KERNEL: kernel.origin };
    const run = await runCli(["run", `${dir}/flow.yaml`, "--report-har", `${dir}/run.har`], {
      env,
    });
    assert.equal(run.code, 0, run.stdout);
    const entry = JSON.parse(await Deno.readTextFile(`${dir}/run.har`)).log.entries[0];
    const order = (entry._webSocketMessages as { type: string; data: string }[])
      .map((m) => `${m.type} ${JSON.parse(m.data).msg_type}`);
    assert.deepEqual(order.slice(0, 5), [
      "send info_request",
      "receive status",
      "receive status",
      "receive info_reply",
      "send execute_request",
    ]);
    const converted = await runCli(["convert", "har", `${dir}/run.har`, "-o", `${dir}/c.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const text = await Deno.readTextFile(`${dir}/c.yaml`);
    const flow = parse(text) as { steps: { websocket: { send: { after?: unknown }[] } }[] };
    assert.deepEqual(flow.steps[0].websocket.send[1].after, {
      message: "$[?@.channel == 'shell']",
    }, text);
    const again = await runCli(["run", `${dir}/c.yaml`], {
      env: { WS_BASE_URL: `ws://${kernel.origin}` },
    });
    assert.equal(again.code, 0, `${again.stdout}\n${text}`);
  } finally {
    await kernel.close();
    await Deno.remove(dir, { recursive: true });
  }
});
