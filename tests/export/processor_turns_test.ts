/**
 * The exported processor takes a WebSocket conversation's turns as
 * `flowrun run` does: a `send` item with `after: {message: PATH}` goes once
 * a message since the item before it made PATH hold, and `until` as a list
 * stops once each path held for some message, in any order. Driven in Node
 * without Artillery (tests/export/drive.ts) against a kernel-like server
 * that sends 0–3 status messages before its reply and its two answers in
 * random order (tests/kinds/websocket/kernel_stand_in.ts), beside `flowrun
 * run` of the same flow; a path no message makes hold fails the user with
 * run's sentence naming it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { kernelStandIn, seeded } from "../kinds/websocket/kernel_stand_in.ts";
import { AFTER_INFO_REPLY, BOTH_ANSWERS, kernelFlow } from "../kinds/websocket/kernel_flow.ts";
import { drive } from "./drive.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);

const flow = (until: string) => kernelFlow(AFTER_INFO_REPLY, until);
const BOTH = BOTH_ANSWERS;

async function written(text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-processor-turns-" });
  await Deno.writeTextFile(`${dir}/kernel.yaml`, text);
  return `${dir}/kernel.yaml`;
}

Deno.test({
  name:
    `the processor sends on the reply waited for and receives every answer, as flowrun run does (4 replays)${installed.ignoredBecause}`,
  ignore: installed.ignoredBecause !== "",
  async fn() {
    const seed = Date.now();
    const kernel = kernelStandIn(seeded(seed));
    const path = await written(flow(BOTH));
    try {
      const env = { KERNEL: kernel.origin };
      const run = await runCli(["run", path], { env });
      assert.equal(run.code, 0, `seed ${seed}: ${run.stdout}${run.stderr}`);
      for (let n = 0; n < 4; n++) {
        const { got, stdout } = await drive(installed.install!.prefix, path, env);
        assert.equal(got.error, undefined, `seed ${seed}, replay ${n}: ${stdout}`);
        assert.equal(got.counters["flowrun.checks.failed"] ?? 0, 0, stdout);
        // The status and `stopped: until` (each until path held); the two filter checks are
        // noted as not expressed, a path the processor cannot read.
        assert.equal(got.counters["flowrun.checks.ok"], 2, stdout);
        assert.ok(got.counters["flowrun.websocket.cell.received"] >= 3, stdout);
      }
      // Each connection got the cell: it was sent whatever number of status messages came first.
      assert.equal(kernel.sent.length, 5);
      for (const sent of kernel.sent) assert.ok(sent.includes("execute_reply"), sent.join(","));
    } finally {
      await kernel.close();
      await Deno.remove(path.replace(/\/kernel\.yaml$/, ""), { recursive: true });
    }
  },
});

Deno.test({
  name:
    `the processor's until list names the path no message made hold, in run's sentence${installed.ignoredBecause}`,
  ignore: installed.ignoredBecause !== "",
  async fn() {
    const kernel = kernelStandIn(seeded(7), 0);
    const never = `$[?@.msg_type == 'never']`;
    const path = await written(
      flow(`["$[?@.msg_type == 'execute_reply']", "${never}"]`).replace("wait: 5s", "wait: 1s"),
    );
    try {
      const { got, stdout } = await drive(installed.install!.prefix, path, {
        KERNEL: kernel.origin,
      });
      assert.match(stdout, new RegExp(`until "\\$\\[\\?@\\.msg_type == 'never'\\]" did not hold`));
      assert.doesNotMatch(stdout, /until "\$\[\?@\.msg_type == 'execute_reply'\]"/);
      assert.ok((got.counters["flowrun.checks.failed"] ?? 0) > 0 || got.error, stdout);
    } finally {
      await kernel.close();
      await Deno.remove(path.replace(/\/kernel\.yaml$/, ""), { recursive: true });
    }
  },
});
