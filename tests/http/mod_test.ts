import assert from "node:assert/strict";
import * as http from "../../lib/http/mod.ts";
import { moduleGraph } from "../../scripts/run_graph.ts";

Deno.test("the http stage's face exports what other stages use of it", () => {
  for (
    const name of [
      "resolveRequest",
      "send",
      "RequestError",
      "reasonOf",
      "ReceivedResponse",
      "CookieJar",
      "curlCommand",
      "Deadlines",
      "redirectTarget",
      "networkReason",
      "formatBytes",
      "MAX_BODY_MEMORY_BYTES",
    ]
  ) {
    assert.ok(name in http, name);
  }
});

Deno.test("importing the face does not load the insecure transport (node:https loads on demand)", async () => {
  const graph = await moduleGraph("lib/http/mod.ts", { dynamic: false });
  assert.ok(graph.includes("lib/http/send.ts"), graph.join(" "));
  assert.ok(!graph.includes("lib/http/insecure.ts"), graph.join(" "));
});
