/**
 * The exchange under the run's signal, in process against ws's server: an
 * interrupt that came before the connection opened, and one in the middle
 * of a stream, each end it at once as `interrupted`, without an error
 * escaping (the `ws` client reports a dropped handshake as an event).
 */
import assert from "node:assert/strict";
import { exchange } from "../../../lib/kinds/websocket/exchange.ts";
import { webSocketClient } from "../../../lib/kinds/websocket/socket.ts";
import { wsServer } from "./servers.ts";

const LIMITS = { timeoutMs: 10_000, waitMs: 10_000, maxBytes: 1 << 20, count: 100_000 };

/** Lets whatever the client scheduled (its error and close events) happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** A client socket to the server's `/flood` on `port`, as the step opens one, and its URL. */
async function floodSocket(port: number) {
  const Client = await webSocketClient();
  const url = `ws://127.0.0.1:${port}/flood`;
  const socket = new Client(url, [], {
    headers: {},
    rejectUnauthorized: true,
    maxPayload: 1 << 20,
    followRedirects: false,
    handshakeTimeout: 10_000,
  });
  return { url, socket };
}

Deno.test("an interrupt before the connection opened ends the exchange as interrupted, no error escaping", async () => {
  const server = await wsServer();
  try {
    const { url, socket } = await floodSocket(server.port);
    const ending = await exchange(socket, [], { ...LIMITS, url, signal: AbortSignal.abort() });
    assert.equal(ending.kind, "failed");
    assert.deepEqual(ending.kind === "failed" && ending.reason, "interrupted");
    await settle();
  } finally {
    await server.close();
  }
});

Deno.test("an interrupt in the middle of a stream ends the exchange at once", async () => {
  const server = await wsServer();
  try {
    const { url, socket } = await floodSocket(server.port);
    const interrupt = new AbortController();
    const timer = setInterval(() => server.seen.length > 0 && interrupt.abort(), 5);
    const ending = await exchange(socket, [], { ...LIMITS, url, signal: interrupt.signal });
    clearInterval(timer);
    assert.deepEqual(ending.kind === "failed" && ending.reason, "interrupted");
    await settle();
  } finally {
    await server.close();
  }
});
