/**
 * `convert har` on request headers and cookies holding what no HTTP header
 * carries (a line break, NUL, U+FFFD from bytes the recorder could not
 * decode, a byte-order mark), found by tests/convert/har_fuzz_test.ts: the
 * flow was written with them and `validate` refused it. They are left out
 * now, with a note counting them.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";

Deno.test("har: request headers and cookies no HTTP header carries are left out with a note", () => {
  const entry = {
    request: {
      method: "GET",
      url: "https://api.test/items",
      headers: [
        { name: "Accept", value: "\ufffd" },
        { name: "X-Two", value: "a\nb" },
        { name: "X-Kept", value: "v" },
      ],
      cookies: [{ name: "\ufeff", value: "c1" }, { name: "sid", value: "n\u0000" }, {
        name: "kept",
        value: "k",
      }],
    },
    response: { status: 200, content: { mimeType: "application/json", text: "[]" } },
  };
  const { yaml, summary } = convertHar(JSON.stringify({ log: { entries: [entry] } }));
  assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1" }).problems, []);
  assert.match(yaml, /x-kept: v/);
  assert.ok(
    summary.notes.some((n) => n.includes("4 request headers or cookies")),
    summary.notes.join("\n"),
  );
});
