/**
 * `convert har` on parts of an entry no flow can send, found by
 * tests/convert/har_fuzz_test.ts: a GET or HEAD with a recorded body (HAR
 * writers other than browsers record one; an entry whose method is missing
 * is read as GET). Before, the flow was written with
 * them and `validate` refused it; now the body is left out with a note
 * naming the entry.
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

const BODY = { postData: { mimeType: "application/json", text: '{"q":"lamp"}' } };

for (
  const [label, request] of [
    ["a GET", { method: "GET", ...BODY }],
    ["a HEAD", { method: "HEAD", ...BODY }],
    ["an entry without a method", BODY],
  ] as const
) {
  Deno.test(`har: ${label} with a recorded body loads, its body left out with a note`, () => {
    const { yaml, summary } = convertHar(har(request));
    assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1" }).problems, []);
    assert.ok(!yaml.includes("lamp"), yaml);
    assert.ok(
      summary.notes.some((n) => n.includes("/items/search") && n.includes("body")),
      summary.notes.join("\n"),
    );
  });
}
