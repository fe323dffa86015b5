import assert from "node:assert/strict";
import { countUuids, freshValue, isIdSegment } from "../../../lib/convert/correlate/ids.ts";
import { correlate, newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { recordsOf } from "../../support/har_records.ts";

const uuid = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";

Deno.test("a client-made UUID sent twice is one var generated once per run", () => {
  const records = recordsOf([
    { method: "PUT", url: `https://a.test/drafts/${uuid}`, body: "{}" },
    { url: `https://a.test/drafts/${uuid}` },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  assert.equal(c.uuidCounts.get(uuid), 2);
  assert.deepEqual(c.vars.at(-1), ["draft_id", "${RANDOM.UUID}"]);
  assert.equal(c.steps[0].url, "${vars.base_url}/drafts/${vars.draft_id}");
  assert.equal(c.steps[1].url, c.steps[0].url);
});

Deno.test("countUuids counts the path, the query and the body", () => {
  const c = newCorrelator("a");
  countUuids(
    c,
    recordsOf([{ method: "POST", url: `https://a.test/x?id=${uuid}`, body: `{"id":"${uuid}"}` }]),
  );
  assert.equal(c.uuidCounts.get(uuid), 2);
});

Deno.test("freshValue keeps the recorded shape; isIdSegment tells ids from words", () => {
  assert.equal(freshValue(uuid), "${RANDOM.UUID}");
  assert.equal(freshValue("0a1b2c3d"), "${RANDOM.HEX_8}");
  assert.equal(freshValue("not hex"), "${RANDOM.UUID}");
  const c = newCorrelator("a");
  assert.ok(isIdSegment(c, "42") && isIdSegment(c, uuid) && isIdSegment(c, "itm_3fa2c1"));
  assert.ok(!isIdSegment(c, "orders") && !isIdSegment(c, "v2"));
});
