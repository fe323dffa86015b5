/**
 * `convert har` on a socket whose offered subprotocols are no tokens (the
 * `Sec-WebSocket-Protocol` value written as a JSON list, or with quotes),
 * found by tests/convert/har_fuzz_test.ts: the step offered the pieces as
 * written, and the flow did not load. Only the names that are tokens are
 * offered now.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";

Deno.test("har: a socket's offered subprotocols keep only the names that are tokens", () => {
  const entry = {
    request: {
      method: "GET",
      url: "wss://chat.test/socket",
      headers: [{ name: "Sec-WebSocket-Protocol", value: '"chat.v1", [chat.v0], chat.v2' }],
    },
    response: { status: 101, headers: [], content: { mimeType: "", text: "" } },
    _resourceType: "websocket",
    _webSocketMessages: [
      { type: "send", time: 1, opcode: 1, data: '{"say":"hi"}' },
      { type: "receive", time: 2, opcode: 1, data: '{"ok":true}' },
    ],
  };
  const { yaml } = convertHar(JSON.stringify({ log: { entries: [entry] } }));
  assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1" }).problems, []);
  assert.match(yaml, /subprotocols: \[chat\.v2\]/, yaml);
});
