/**
 * `convert har` on a long poll the recording never saw answered, as
 * Syncthing's web GUI leaves `/rest/events/disk` open
 * (tests/real/syncthing_har_test.ts): the server sent its status and
 * headers (`Transfer-Encoding: chunked`) and holds the body until something
 * happens, and the browser closed before it did. Playwright records it as
 * 200 with no body (`content.size` -1). Replayed, the step waits for the
 * server's own timeout (Syncthing's is 60 s) and fails at the runner's; the
 * recording holds no answer to check, so the entry is dropped and counted.
 * Widened to the class: the same shape as a read of another path and as
 * chrome-har writes it (no `_transferSize`); an answered GET whose body the
 * recorder missed (a `Content-Length`), a POST without a body recorded and
 * a Server-Sent Events stream are kept, and so is a read begun less than a
 * second before the recording ended (it only missed its body).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A stand-in that holds `/events/*` open until the client goes (as a long poll with nothing to say). */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname.startsWith("/events/")) {
      const body = new ReadableStream({ start() {} }); // never a byte
      return new Response(body, { headers: { "content-type": "application/json" } });
    }
    if (url.pathname === "/stream") {
      return new Response("data: hi\n\n", { headers: { "content-type": "text/event-stream" } });
    }
    return Response.json({ ok: true }, { status: req.method === "POST" ? 201 : 200 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

type Shape = "open" | "open-chrome" | "missed-body" | "post" | "sse" | "answered";

function entry(method: string, path: string, shape: Shape, i: number) {
  const headers = [{ name: "Content-Type", value: "application/json" }];
  if (shape === "open" || shape === "open-chrome") {
    headers.push({ name: "Transfer-Encoding", value: "chunked" });
  }
  if (shape === "missed-body") headers.push({ name: "Content-Length", value: "11" });
  if (shape === "sse") headers[0].value = "text/event-stream";
  const answered = shape === "answered";
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 1,
    request: { method, url: `http://127.0.0.1:8384${path}`, headers: [] },
    response: {
      status: method === "POST" ? 201 : 200,
      headers,
      cookies: [],
      content: answered
        ? { size: 11, mimeType: "application/json", text: '{"ok":true}' }
        : { size: -1, mimeType: headers[0].value },
      bodySize: answered ? 11 : -1,
      ...(shape === "open-chrome" ? {} : { _transferSize: answered ? 200 : -1 }),
    },
    timings: { send: 0, wait: 1, receive: answered ? 1 : -1 },
    _resourceType: shape === "sse" ? "eventsource" : "xhr",
  };
}

Deno.test("convert har: a long poll still open when the recording ended is dropped, not replayed until a timeout", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    const entries = [
      entry("GET", "/items", "answered", 0),
      entry("GET", "/events/disk?limit=25", "open", 1),
      entry("GET", "/events/main?since=17", "open-chrome", 2),
      entry("GET", "/items/1", "missed-body", 3),
      entry("POST", "/items", "post", 4),
      entry("GET", "/stream", "sse", 5),
      // Begun as the recording stopped (a page's last fetch when the browser closed): it only
      // missed its body, and a replay is answered (Verdaccio's readme, 1 fresh recording in 4).
      entry("GET", "/items/2", "open", 5),
    ];
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify({ log: { entries } }));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!/url: .*\/events\//.test(flow), flow);
    for (const kept of ["/items\n", "/items/1\n", "/stream", "/items/2\n"]) {
      assert.ok(flow.includes(kept), kept);
    }
    assert.match(converted.stderr, /unanswered \(still open when the recording ended\) 2/);
    const run = await runCli(["run", `${dir}/flow.yaml`, "--timeout", "3s"], {
      env: { BASE_URL: server.origin },
    });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
