/**
 * `convert har` reads a recorded event stream as an `sse:` step. A page's
 * `EventSource` stays open while the journey goes on, and Chromium records
 * it with its headers and no event (`tests/fixtures/har_sse/`: a page that
 * opens `/events` and then fetches a ticket, recorded by Playwright and by
 * chrome-har). Sent as a plain request, the stream's step waited for a body
 * that never ends and failed at its timeout, skipping nothing but failing
 * the flow; read as an sse step it reads for a moment and checks the status.
 * A stream that ended (a `fetch` of an answer streamed in events) holds its
 * events, and the step reads as many.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../fixtures/har_sse/", import.meta.url).pathname;

interface FlowStep {
  name: string;
  request?: Record<string, unknown>;
  sse?: Record<string, unknown>;
  assert?: { status?: number };
}

/** The recorded app: `/events` streams two events and stays open; `/api/tickets/…` answers. */
function startApp() {
  const open = new Set<ReadableStreamDefaultController>();
  let streams = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/events") {
      streams++;
      const body = new ReadableStream({
        start(c) {
          open.add(c);
          c.enqueue(new TextEncoder().encode(`id: 1\nevent: hello\ndata: {"room":"lobby"}\n\n`));
          c.enqueue(
            new TextEncoder().encode(`id: 2\nevent: ticket\ndata: {"ticket":"tkt-123"}\n\n`),
          );
        },
        cancel() {},
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname.startsWith("/api/tickets/")) return Response.json({ ok: true });
    return new Response("not found", { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    streams: () => streams,
    async close() {
      for (const c of open) {
        try {
          c.close();
        } catch {
          // Closed by the client already.
        }
      }
      await server.shutdown();
    },
  };
}

for (const form of ["pw", "cdp"]) {
  Deno.test(`an open EventSource recorded by ${form === "pw" ? "Playwright" : "chrome-har"} is an sse step that reads for a moment, and the flow passes`, async () => {
    const har = await Deno.readTextFile(`${FIXTURES}events.${form}.har`);
    const { yaml } = convertHar(har);
    const steps = (parse(yaml) as { steps: FlowStep[] }).steps;
    const events = steps.find((s) => s.name === "list_events");
    assert.ok(events, yaml);
    assert.equal(events.request, undefined, yaml);
    assert.deepEqual(events.sse, {
      url: "${vars.base_url}/events?room=lobby",
      headers: { accept: "text/event-stream" },
      wait: "1s",
    });
    assert.equal(events.assert?.status, 200);

    const app = startApp();
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sse-" });
    try {
      await Deno.writeTextFile(`${dir}/flow.yaml`, yaml);
      // A step timeout shorter than the default: a request step would wait for the stream's end
      // until then and fail; the sse step reads for its second and passes.
      const run = await runCli(
        ["run", `${dir}/flow.yaml`, "--timeout", "5s", "--report-json", `${dir}/r.json`],
        { env: { BASE_URL: app.origin } },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      const step = report.flows[0].steps[0];
      assert.equal(step.status, "passed");
      assert.equal(app.streams(), 1);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a stream that ended holds its events: the sse step reads as many; a POST stream sends its JSON body", () => {
  const har = JSON.parse(Deno.readTextFileSync(`${FIXTURES}events.pw.har`));
  const entry = har.log.entries.find((e: { request: { url: string } }) =>
    e.request.url.includes("/events")
  );
  entry.request.method = "POST";
  entry.request.url = entry.request.url.replace("/events?room=lobby", "/v1/answers");
  entry.request.postData = { mimeType: "application/json", text: '{"question":"why?"}' };
  entry._resourceType = "fetch";
  entry.response.content = {
    mimeType: "text/event-stream",
    text:
      'data: {"delta":"be"}\n\ndata: {"delta":"cause"}\n\n: keep-alive\n\nevent: done\ndata:\n\n',
  };
  const { yaml } = convertHar(JSON.stringify(har));
  const step = (parse(yaml) as { steps: FlowStep[] }).steps.find((s) => s.sse);
  assert.ok(step, yaml);
  assert.deepEqual(step.sse, {
    url: "${vars.base_url}/v1/answers",
    headers: { accept: "text/event-stream" },
    method: "POST",
    body: { question: "why?" },
    count: 3,
    wait: "10s",
  });
});
