import assert from "node:assert/strict";
import { loadBodies } from "../../lib/convert/har_bodies.ts";
import { parseHar } from "../../lib/convert/har_model.ts";

const entry = (response: unknown, request: Record<string, unknown> = {}) => ({
  request: { method: "GET", url: "https://a.test/x", ...request },
  ...(response === undefined ? {} : { response }),
});

function load(...entries: unknown[]) {
  const { records } = parseHar(JSON.stringify({ log: { entries } }), []);
  const notes: string[] = [];
  loadBodies(records, notes);
  return { records, notes };
}

Deno.test("loadBodies decodes base64 text, parses JSON, and notes each limit once per request", () => {
  const { records, notes } = load(
    entry({
      status: 200,
      content: { mimeType: "application/json", encoding: "base64", text: btoa('{"ok":true}') },
    }),
    entry({
      status: 200,
      content: { mimeType: "image/png", encoding: "base64", text: btoa("\u0000\u0001") },
    }),
    entry({ status: 200, content: { mimeType: "application/json", text: "{trunc" } }),
    entry({ status: 200, content: { size: 10 } }),
    entry({ status: 204, content: { size: 10 } }),
    entry(undefined),
  );
  assert.deepEqual(records[0].json, { ok: true });
  assert.equal(records[0].hasJson, true);
  assert.equal(records[1].responseText, undefined);
  assert.equal(records[2].hasJson, false);
  assert.deepEqual(
    notes.map((n) =>
      n.replace(/^.*?(binary|not valid JSON|not in the HAR|no recorded response).*$/, "$1")
    ),
    [
      "binary",
      "not valid JSON",
      "not in the HAR",
      "no recorded response",
    ],
  );
});

Deno.test("a JSON body chrome-har flattened into params gets its one-item list back", () => {
  const { records, notes } = load(
    entry(
      { status: 200, content: { mimeType: "application/json", text: '{"tags":["a"]}' } },
      {
        method: "POST",
        bodySize: 14,
        postData: { mimeType: "application/json", params: [{ name: "tags", value: "a" }] },
      },
    ),
  );
  assert.equal(records[0].bodyText, '{"tags":["a"]}');
  assert.match(notes[0], /^1 JSON request body was recorded only as name\/value pairs/);
});
