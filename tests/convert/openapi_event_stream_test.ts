/**
 * convert openapi (issue 52): a GET whose 2xx answer is `text/event-stream`
 * (server-sent events) is an `sse:` step reading its first event, its
 * status checked; a plain request waited for an end the server never
 * sends, and failed at the run's timeout (Express-Zod-API's
 * `/v1/events/stream`, measured by hand). The document gives the events no
 * JSON body, so no `openapi:` check.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function document() {
  return {
    openapi: "3.2.0",
    info: { title: "Events", version: "1" },
    paths: {
      "/v1/events/stream": {
        get: {
          tags: ["subscriptions"],
          responses: {
            "200": {
              description: "time events",
              content: {
                "text/event-stream": {
                  itemSchema: { type: "object", properties: { data: { type: "integer" } } },
                },
              },
            },
          },
        },
      },
    },
  };
}

/** A server whose stream sends an event each 50 ms and never ends (until the client leaves). */
function startServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let n = 0;
        timer = setInterval(() => {
          try {
            controller.enqueue(new TextEncoder().encode(`event: time\ndata: ${++n}\n\n`));
          } catch {
            clearInterval(timer);
          }
        }, 50);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

Deno.test("an event stream's GET reads its first event as an sse: step", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-event-stream-" });
  const server = startServer();
  try {
    await Deno.writeTextFile(`${dir}/events.json`, JSON.stringify(document(), null, 2));
    const converted = await runCli(["convert", "openapi", `${dir}/events.json`, "-o", `${dir}/f`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f/subscriptions.yaml`);
    assert.match(flow, /sse:\n {6}url: \$\{ENV\.BASE_URL\}\/v1\/events\/stream\n {6}count: 1\n/);
    assert.doesNotMatch(flow, /request:|openapi:/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
