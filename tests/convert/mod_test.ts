import assert from "node:assert/strict";
import { convertHar, formatSummary } from "../../lib/convert/mod.ts";
import { harOf } from "../support/har_records.ts";

Deno.test("lib/convert/mod.ts: a HAR in, flow text and a summary out", () => {
  const har = harOf([{ url: "https://a.test/api/me", json: { ok: true } }]);
  const { yaml, summary, files } = convertHar(har);
  assert.match(yaml, /- name: get_me/);
  assert.equal(summary.kept, 1);
  assert.deepEqual(files, []);
  assert.match(formatSummary(summary), /^Converted 1 of 1 HAR entries into 1 step/);
});
