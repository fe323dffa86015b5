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
  const big = JSON.stringify({ items: Array.from({ length: 60_000 }, (_, i) => ({ i })) });
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
    assert.equal(json.events[0].data.items.length, 60_000);
  } finally {
    await server.close();
  }
});
