/**
 * `convert har` on a response header whose name is not an HTTP token but
 * whose value a later request sends back, found by
 * tests/convert/har_fuzz_test.ts: the capture named that header, and the
 * flow did not load (a capture reads a header by a token's name). Such a
 * header is no producer now: the value is asked of the user instead.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";

Deno.test("har: a token answered in a header whose name is no HTTP token is not captured from it", () => {
  const token = "9f2c41d0a7be3385e1";
  const entries = [
    {
      request: { method: "POST", url: "https://api.test/session", headers: [] },
      response: {
        status: 200,
        headers: [{ name: "{{v}}", value: token }],
        content: { mimeType: "application/json", text: "{}" },
      },
    },
    {
      request: {
        method: "GET",
        url: "https://api.test/items",
        headers: [{ name: "X-Token", value: token }],
      },
      response: { status: 200, content: { mimeType: "application/json", text: "[]" } },
    },
  ];
  const { yaml } = convertHar(JSON.stringify({ log: { entries } }));
  assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1" }).problems, []);
  assert.ok(!yaml.includes("{{v}}") && !yaml.includes(token), yaml);
});
