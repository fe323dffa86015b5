/**
 * `convert har` on a header whose name is not an HTTP token (a space, a
 * byte-order mark, a control character, an expression), found by
 * tests/convert/har_fuzz_test.ts: the flow was written with it and
 * `validate` refused it. Now it is dropped as a pseudo-header is: no client
 * can send it.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";

function har(request: Record<string, unknown>): string {
  const entry = {
    request: { url: "https://api.test/items/search", headers: [], ...request },
    response: { status: 200, content: { mimeType: "application/json", text: '{"n":1}' } },
  };
  return JSON.stringify({ log: { entries: [entry] } });
}

Deno.test("har: a header whose name is not an HTTP token is dropped; the flow loads", () => {
  const headers = ["\ufeff", "Bad Name", "a\nb", "\u0000x", "${ENV.X}", "X-Kept"].map((name) => ({
    name,
    value: "v",
  }));
  const { yaml } = convertHar(har({ method: "GET", headers }));
  assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1" }).problems, []);
  assert.match(yaml, /x-kept: v/i);
});
