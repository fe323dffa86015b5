/**
 * `convert har` on a kernel-like WebSocket conversation whose live server
 * varies what it sends (issue 52/55, Jupyter Notebook's kernel socket): the
 * page asks `info_request`, sends `execute_request` once the `info_reply`
 * came, and receives the cell's `execute_result` and `execute_reply`, which
 * arrive on two channels in either order. Replayed against a stand-in that
 * sends 0–3 extra `status` messages before its reply
 * (tests/kinds/websocket/kernel_stand_in.ts).
 *
 * Before: the cell waited for `after: 4` messages, the recording's count (3
 * statuses and the reply): with fewer statuses the 4th never came and
 * the step waited out its bound with the cell unsent; and the step received
 * until the recording's last answer only, so the `2` was lost whenever the
 * reply came first. After: the cell is sent once the `info_reply` arrived
 * (`after: {message: …}`, by its word field, never a count), and the step
 * receives until each kind of answer arrived (`until: [execute_result,
 * execute_reply]`). Widened: the type at the top or inside a header, with
 * and without a later step reading the reply (a capture).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertSocket, socketHar } from "./har_socket_recording.ts";
import { kernelStandIn, type Msg, seeded } from "../kinds/websocket/kernel_stand_in.ts";

/** How a message names its type: at the top, or inside a header as Jupyter's do. */
const SHAPES: [string, (m: Msg) => Msg][] = [
  ["at the top", (m) => m],
  ["inside a header", ({ msg_type, ...rest }) => ({ header: { msg_type, msg_id: "x" }, ...rest })],
];

/** The recording: 3 statuses before the info reply, the cell answered result first, then idle. */
function recording(shape: (m: Msg) => Msg, withSave: boolean): string {
  let ms = 0;
  const frame = (type: string, m: Msg) => ({
    type,
    opcode: 1,
    time: Date.UTC(2026, 0, 1, 0, 0, 0, ms += 5) / 1000,
    data: JSON.stringify(shape(m)),
  });
  const status = (state: string) =>
    frame("receive", { channel: "iopub", msg_type: "status", state });
  const messages = [
    frame("send", { msg_type: "info_request" }),
    status("idle"),
    status("idle"),
    status("idle"),
    frame("receive", { channel: "shell", msg_type: "info_reply", lexer: "ipython3" }),
    frame("send", { msg_type: "execute_request", code: "1 + 1" }),
    status("busy"),
    frame("receive", { channel: "iopub", msg_type: "execute_result", data: "2" }),
    frame("receive", { channel: "shell", msg_type: "execute_reply", status: "ok" }),
    status("idle"),
  ];
  return socketHar("ws://127.0.0.1:8888/channels", messages, withSave);
}

/** The types of the messages the socket step received, read from a run's HAR report. */
async function receivedTypes(har: string): Promise<string[]> {
  const entries = JSON.parse(await Deno.readTextFile(har)).log.entries as {
    _webSocketMessages?: { type: string; data: string }[];
  }[];
  return entries.flatMap((e) => e._webSocketMessages ?? [])
    .filter((m) => m.type === "receive")
    .map((m) => JSON.parse(m.data))
    .map((m) => m.msg_type ?? m.header?.msg_type);
}

const REPLAYS = 5;

for (const [where, shape] of SHAPES) {
  for (const withSave of [true, false]) {
    const later = withSave ? "a later request reads the reply" : "nothing later reads it";
    Deno.test(`convert har: a kernel-like socket (type ${where}, ${later}) is sent its cell once the reply came and receives both answers, ${REPLAYS} replays of varying chatter`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-turns-" });
      const seed = Date.now();
      const kernel = kernelStandIn(seeded(seed), undefined, shape);
      try {
        const { text, ws } = await convertSocket(dir, recording(shape, withSave));
        const path = where === "at the top" ? "msg_type" : "header.msg_type";
        const sent = ws.send as Record<string, unknown>[];
        // The reply by a field only it has (its type, or its channel: the first in the message).
        const reply = where === "at the top"
          ? "channel == 'shell'"
          : "header.msg_type == 'info_reply'";
        assert.deepEqual(sent[1].after, { message: `$[?@.${reply}]` }, text);
        assert.deepEqual(ws.until, [
          `$[?@.${path} == 'execute_result']`,
          `$[?@.${path} == 'execute_reply']`,
        ], text);
        assert.equal(ws.count, undefined, text);
        const env = { BASE_URL: `http://${kernel.origin}`, WS_BASE_URL: `ws://${kernel.origin}` };
        for (let n = 1; n <= REPLAYS; n++) {
          const har = `${dir}/run${n}.har`;
          const run = await runCli(["run", `${dir}/f.yaml`, "--report-har", har], { env });
          const context = `seed ${seed}, replay ${n}, server sent ${
            JSON.stringify(kernel.sent.at(-1))
          }\n${run.stdout}\n${text}`;
          assert.equal(run.code, 0, context);
          const types = await receivedTypes(har);
          assert.ok(types.includes("execute_result"), context);
          assert.ok(types.includes("execute_reply"), context);
        }
        assert.equal(kernel.sent.length, REPLAYS);
      } finally {
        await kernel.close();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}

Deno.test("convert har: a turn whose answer no field tells apart keeps waiting for the recorded count", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-turns-" });
  try {
    // Every message is the same word: nothing says which one the second send answered.
    const har = recording(
      (m) => ({
        ...m,
        msg_type: "msg",
        channel: "x",
        state: "x",
        lexer: "x",
        status: "x",
        data: "x",
      }),
      false,
    );
    const { text, ws } = await convertSocket(dir, har);
    assert.equal((ws.send as Record<string, unknown>[])[1].after, 4, text);
    assert.equal(ws.count, 8, text);
    assert.equal(ws.until, undefined, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
