import assert from "node:assert/strict";
import { encodedJson } from "../../lib/convert/encoded.ts";

Deno.test("encodedJson rewrites the values inside JSON in a query value, and re-encodes it", () => {
  const out = encodedJson(
    '{"id":"lst_71c9e2","first":10}',
    (_k, v) => v === "lst_71c9e2" ? "${steps.create.capture.list_id}" : undefined,
    (t) => t,
  );
  assert.equal(out, "%7B%22id%22%3A%22${steps.create.capture.list_id}%22%2C%22first%22%3A10%7D");
  assert.equal(encodedJson('{"id":"x"}', () => undefined, (t) => t), undefined);
  assert.equal(encodedJson("plain", () => "${x}", (t) => t), undefined);
});
