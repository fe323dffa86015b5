/**
 * One `sse:` attempt, run directly against a real Deno.serve SSE server:
 * the `until` filter over an event too large to evaluate inline (it goes to
 * the guarded helper thread), and `$.json` as documented.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../../lib/load/load_flow.ts";
import { withEngines } from "../../../lib/load/engines.ts";
import { attemptSse } from "../../../lib/kinds/sse/attempt.ts";
import type { SseSpec } from "../../../lib/kinds/sse/read.ts";
import type { KindCall } from "../../../lib/kinds/kind.ts";
import { tell, type Told } from "../../../lib/model/told.ts";

/** A kind's message as text, values in clear. */
function said(message: string | Told): string {
  return typeof message === "string" ? message : tell(message);
}

function serve(parts: string[]) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(new Blob(parts).stream(), { headers: { "content-type": "text/event-stream" } }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

async function specOf(sse: string): Promise<SseSpec> {
  const text = `name: f\nsteps:\n  - name: s\n    sse: ${sse}\n`;
  const { flow, problems } = await withEngines(() => loadFlow(text, "f.yaml"));
  assert.deepEqual(problems, []);
  return flow!.steps[0].call!.spec as SseSpec;
}

function call(url: string): KindCall {
  return {
    render: () => undefined,
    text: () => url,
    timeoutMs: 10_000,
    network: () => ({ insecure: false }),
    maxBodyBytes: 10_000_000,
    secret: () => {},
  };
}

Deno.test("until holds on an event whose data is too large to filter inline", async () => {
  const big = JSON.stringify({ items: Array.from({ length: 110_000 }, (_, i) => i) });
  const server = serve([
    `data: ${big}\n\n`,
    `event: done\ndata: {"ok": true}\n\n`,
    "data: after\n\n",
  ]);
  try {
    const spec = await specOf(`{url: "${server.url}", until: "$[?@.event == 'done']"}`);
    const outcome = await attemptSse(spec, call(server.url));
    assert.equal(outcome.failures, undefined, JSON.stringify(outcome.failures));
    const json = JSON.parse(outcome.response!.body);
    assert.equal(json.stopped, "until");
    assert.deepEqual(json.events.map((e: { event: string }) => e.event), ["message", "done"]);
    assert.equal(json.events[0].data.items.length, 110_000);
  } finally {
    await server.close();
  }
});

/** A raw HTTP/1.1 server: each connection's request head, and a reply per connection number. */
function rawServer(reply: (n: number, head: string) => string, cut: (n: number) => boolean) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const served = (async () => {
    // Bounded: three connections at most.
    for (let n = 0; n < 3; n++) {
      const conn = await listener.accept().catch(() => undefined);
      if (!conn) return;
      let head = "";
      const buf = new Uint8Array(4096);
      while (!head.includes("\r\n\r\n")) {
        const got = await conn.read(buf);
        if (got === null) break;
        head += new TextDecoder().decode(buf.subarray(0, got));
      }
      heads.push(head.toLowerCase());
      await conn.write(new TextEncoder().encode(reply(n, head))).catch(() => {});
      // Cut: close the socket in the middle of the chunked body, with no last chunk.
      if (cut(n)) conn.close();
      else await conn.write(new TextEncoder().encode("0\r\n\r\n")).then(() => conn.close());
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    heads,
    close: async () => {
      listener.close();
      await served;
    },
  };
}

const chunk = (text: string) => {
  const bytes = new TextEncoder().encode(text).byteLength;
  return `${bytes.toString(16)}\r\n${text}\r\n`;
};
const HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n" +
  "transfer-encoding: chunked\r\n\r\n";

Deno.test("a connection cut mid-stream is reconnected from the last id: nothing lost, nothing doubled", async () => {
  const server = rawServer(
    (n) =>
      n === 0
        // Event 2 is cut before its empty line: it must not be kept from this connection.
        ? HEAD + chunk("retry: 10\nid: 1\ndata: a\n\n") + chunk("id: 2\ndata: b")
        : HEAD + chunk("id: 2\ndata: b\n\nid: 3\nevent: done\ndata: c\n\n"),
    (n) => n === 0,
  );
  try {
    const spec = await specOf(
      `{url: "${server.url}", until: "$[?@.event == 'done']", reconnects: 1}`,
    );
    const outcome = await attemptSse(spec, call(server.url));
    assert.equal(outcome.failures, undefined, JSON.stringify(outcome));
    const json = JSON.parse(outcome.response!.body);
    assert.deepEqual(json.events.map((e: { data: string }) => e.data), ["a", "b", "c"]);
    assert.deepEqual(json.events.map((e: { id: string }) => e.id), ["1", "2", "3"]);
    assert.equal(server.heads.length, 2);
    assert.match(server.heads[1], /\r\nlast-event-id: 1\r\n/);
    assert.doesNotMatch(server.heads[0], /last-event-id/);
  } finally {
    await server.close();
  }
});

Deno.test("a cut stream with no reconnects left ends with what arrived, and until's failure says so", async () => {
  const server = rawServer(() => HEAD + chunk("id: 1\ndata: a\n\n"), () => true);
  try {
    const spec = await specOf(`{url: "${server.url}", until: "$[?@.event == 'done']"}`);
    const outcome = await attemptSse(spec, call(server.url));
    assert.equal(JSON.parse(outcome.response!.body).stopped, "end");
    assert.deepEqual(outcome.failures?.map((f) => [f.check, said(f.message)]), [[
      "until",
      `until "$[?@.event == 'done']" did not hold in the 1 event that arrived before the server ended the stream.`,
    ]]);
  } finally {
    await server.close();
  }
});

Deno.test("a server that never answers: a timeout error at wait, which retries take like HTTP's", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  // Bounded: holds one connection, answers nothing.
  const accepted = listener.accept().then((c) => held.push(c), () => {});
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`;
  try {
    const spec = await specOf(`{url: "${url}", wait: 200ms}`);
    const outcome = await attemptSse(spec, call(url));
    assert.equal(outcome.response, undefined);
    assert.equal(outcome.error?.reason, "timeout");
    const message = outcome.error!.message;
    assert.equal(said(message), `GET ${url} did not answer within 200 ms.`);
    // The URL is a value of the sentence, masked where the step shows it.
    assert.deepEqual(typeof message === "string" ? message : message.values, [url]);
  } finally {
    listener.close();
    await accepted;
    for (const c of held) c.close();
  }
});

Deno.test("an answer that is not a stream, with until: the answer as it came and until's failure naming it", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ error: "unauthorized" }, { status: 401 }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/`;
  try {
    const spec = await specOf(`{url: "${url}", until: "$[?@.event == 'done']"}`);
    const outcome = await attemptSse(spec, call(url));
    assert.equal(outcome.response?.status, 401);
    assert.deepEqual(JSON.parse(outcome.response!.body), { error: "unauthorized" });
    assert.deepEqual(outcome.failures?.map((f) => said(f.message)), [
      `until "$[?@.event == 'done']" did not hold in the 0 events that arrived ` +
      `(the server answered 401 with application/json, not an event stream).`,
    ]);
  } finally {
    await server.shutdown();
  }
});
