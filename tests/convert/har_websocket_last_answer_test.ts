/**
 * `convert har` on a WebSocket conversation that goes on after the message a
 * later request reads, as Jupyter Notebook's kernel socket has it
 * (tests/real/notebook_har_test.ts): the page asks `kernel_info_request`, a
 * later save sends the `kernel_info_reply`'s language, then the page sends
 * `execute_request` (`1 + 1`) once that reply came and receives
 * `execute_result` (`2`) and `execute_reply` before it goes on. The step
 * waited `until` the reply its capture reads (websocket_await.ts), so it sent
 * the execute request and closed the socket at once: the cell was never run
 * to its answer, and nothing of it was received or checked.
 *
 * What the converter does: when the client sent something once messages had
 * come (`after`) and the recording received answers after that, the step
 * receives until the recording's last received message (a JSON message
 * found by a field no earlier message of the conversation has with that
 * value), its captures still read any message. Widened: the discriminating
 * field at the top or one level down; a conversation whose sends need no
 * reply, or whose last message is text, keeps waiting for the captured
 * message.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertSocket, socketHar } from "./har_socket_recording.ts";

type Msg = Record<string, unknown>;

/** How a message names its type: at the top (`type`) or inside a header (`header.msg_type`). */
const SHAPES: [string, (type: string, rest?: Msg) => Msg][] = [
  ["at the top", (type, rest = {}) => ({ type, ...rest })],
  ["inside a header", (type, rest = {}) => ({ header: { msg_type: type, n: 1 }, ...rest })],
];

/** A kernel-like socket: info on `hello`, a result and a reply 100 ms after `exec`. */
function standIn(shape: (type: string, rest?: Msg) => Msg) {
  const delivered: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/save") return Response.json({ saved: (await req.json()).lexer });
    const { socket, response } = Deno.upgradeWebSocket(req);
    const send = (m: Msg, name: string) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify(m));
      delivered.push(name);
    };
    socket.onmessage = (e) => {
      const said = JSON.parse(String(e.data));
      const type = said.type ?? said.header?.msg_type;
      if (type === "hello") {
        send(shape("status"), "status");
        send(shape("info", { lexer: "ipython3" }), "info");
      }
      if (type === "exec") {
        setTimeout(() => {
          send(shape("result", { value: 2 }), "result");
          send(shape("done"), "done");
        }, 100);
      }
    };
    return response;
  });
  return {
    origin: `127.0.0.1:${server.addr.port}`,
    delivered,
    close: () => server.shutdown(),
  };
}

function recording(shape: (type: string, rest?: Msg) => Msg, lastIsText = false): string {
  const message = (type: string, data: unknown, ms: number) => ({
    type,
    opcode: 1,
    time: Date.UTC(2026, 0, 1, 0, 0, 0, ms) / 1000,
    data: typeof data === "string" ? data : JSON.stringify(data),
  });
  return socketHar("ws://127.0.0.1:8888/kernel", [
    message("send", shape("hello"), 10),
    message("receive", shape("status"), 20),
    message("receive", shape("info", { lexer: "ipython3" }), 30),
    message("send", shape("exec", { code: "1 + 1" }), 40),
    message("receive", shape("result", { value: 2 }), 50),
    message("receive", lastIsText ? "done" : shape("done"), 60),
  ], true);
}

for (const [where, shape] of SHAPES) {
  Deno.test(`convert har: a socket whose client sent more once the captured message came waits for the last answer (its type ${where})`, async () => {
    const dir = await Deno.makeTempDir();
    const fresh = standIn(shape);
    try {
      const { text, ws } = await convertSocket(dir, recording(shape));
      assert.match(String(ws.until), /done/, text);
      const run = await runCli(["run", `${dir}/f.yaml`], {
        env: { BASE_URL: `http://${fresh.origin}`, WS_BASE_URL: `ws://${fresh.origin}` },
      });
      assert.equal(run.code, 0, `${run.stdout}\n${text}`);
      // The cell's answer reached the step: the socket was open when the server sent it.
      assert.deepEqual(fresh.delivered, ["status", "info", "result", "done"], text);
    } finally {
      await fresh.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

// Since issue 52/55 the step awaits every kind of answer it can name (har_websocket_answers.ts):
// a text answer has no field to name it by, so the JSON answer before it is awaited, not the
// captured message (which came before the exec was sent).
Deno.test("convert har: a socket whose last answer is text awaits the answer it can name", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { text, ws } = await convertSocket(dir, recording(SHAPES[0][1], true));
    assert.deepEqual(ws.until, "$[?@.type == 'result']", text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
