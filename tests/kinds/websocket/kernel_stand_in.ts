/**
 * A kernel-like WebSocket server on 127.0.0.1 whose chatter varies as a
 * fresh Jupyter kernel's does: a random number (0–3) of `status` messages
 * before its `info_reply`, and the answers to `execute_request`
 * on two channels in random order (`execute_result` on iopub, `execute_reply`
 * on shell), each after a random short delay. `extra` fixes the number of
 * status messages; `shape` writes a message as the client's recording has it
 * (its type at the top, or inside a header as Jupyter's). Also
 * answers `POST /save` with the lexer sent, for a step after the socket.
 */

/** A message as JSON. */
export type Msg = Record<string, unknown>;

/** The server, what it sent on each connection, and how to stop it. */
export interface KernelStandIn {
  origin: string;
  /** Per connection, the `msg_type` of each message it sent, in order. */
  sent: string[][];
  close(): Promise<void>;
}

/** Starts the stand-in; `random` draws in [0, 1) (seeded by the caller to replay a failure). */
export function kernelStandIn(
  random: () => number = Math.random,
  extra?: number,
  shape: (m: Msg) => Msg = (m) => m,
): KernelStandIn {
  const sent: string[][] = [];
  const statuses = () => extra ?? Math.floor(random() * 4);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname === "/save") {
      return Response.json({ saved: (await req.json()).lexer });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    const log: string[] = [];
    sent.push(log);
    const send = (m: Msg) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify(shape(m)));
      log.push(String(m.msg_type));
    };
    const status = (state: string) => send({ channel: "iopub", msg_type: "status", state });
    socket.onmessage = (e) => {
      const said = JSON.parse(String(e.data));
      const type = said.msg_type ?? said.header?.msg_type;
      if (type === "info_request") {
        for (let i = statuses(); i > 0; i--) status("idle");
        send({ channel: "shell", msg_type: "info_reply", lexer: "ipython3" });
      }
      if (type === "execute_request") {
        status("busy");
        const answers: Msg[] = [
          { channel: "iopub", msg_type: "execute_result", data: "2" },
          { channel: "shell", msg_type: "execute_reply", status: "ok" },
        ];
        if (random() < 0.5) answers.reverse();
        // Each after its own short delay: the order the two channels deliver in is the kernel's.
        setTimeout(() => {
          send(answers[0]);
          setTimeout(() => {
            send(answers[1]);
            status("idle");
          }, Math.floor(random() * 20));
        }, Math.floor(random() * 20));
      }
    };
    return response;
  });
  return {
    origin: `127.0.0.1:${server.addr.port}`,
    sent,
    close: () => server.shutdown(),
  };
}

/** A small seeded generator (mulberry32, the robustness tests' own), so a failing draw can be replayed from its seed. */
export { random as seeded } from "../../support/hostile.ts";
