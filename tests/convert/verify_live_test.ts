import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { LiveSession } from "../../lib/convert/verify_live.ts";
import "../support/engines.ts";

Deno.test("a live step runs with the runner's step level; it captures, and only the API's hosts are sent to", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ id: "live-42" }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const { flow } = loadFlow(
      `name: f
vars: {base_url: "\${ENV.BASE_URL}"}
steps:
  - name: s
    request: {url: "\${vars.base_url}/items"}
    capture: {id: $.json.id}
  - name: t
    request: {url: "http://127.0.0.2:9/y"}
`,
      "f.yaml",
      { checkEnv: false },
    );
    const live = new LiveSession(flow!, (n) => n === "BASE_URL" ? base : undefined, [
      `127.0.0.1:${server.addr.port}`,
    ]);
    try {
      const first = await live.run(flow!.steps[0], flow!);
      assert.ok(first.sent);
      assert.equal(first.result.status, "passed");
      assert.equal(first.captured.get("id"), "live-42");
      const second = await live.run(flow!.steps[1], flow!);
      assert.deepEqual(second, { sent: false, host: "127.0.0.2:9" });
      assert.equal(live.requests, 1);
    } finally {
      live.close();
    }
  } finally {
    await server.shutdown();
  }
});
