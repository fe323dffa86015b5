import assert from "node:assert/strict";
import { stablePath, useProducer } from "../../../lib/convert/correlate/captures.ts";
import { correlate } from "../../../lib/convert/correlate/pipeline.ts";
import { recordsOf } from "../../support/har_records.ts";

const items = { items: [{ name: "Ruby", id: "itm_1a2b3c" }, { name: "Go", id: "itm_4d5e6f" }] };

Deno.test("stablePath: a list index becomes a filter on the field that tells the element apart", () => {
  const records = recordsOf([{ url: "https://a.test/items", json: items }]);
  const c = correlate(records, [{ records }], "a");
  assert.deepEqual(stablePath(c, c.steps[0], ["items", 1, "id"]), [
    "items",
    { key: "name", value: "Go" },
    "id",
  ]);
  // The last segment stays an index: nothing below it to tell apart.
  assert.deepEqual(stablePath(c, c.steps[0], ["items", 0]), ["items", 0]);
});

Deno.test("useProducer declares a capture once per source and counts the use", () => {
  const records = recordsOf([
    { url: "https://a.test/items", json: items },
    { url: "https://a.test/other" },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  const [list, other] = c.steps;
  const p = {
    step: list,
    source: { kind: "json" as const, path: ["items", 0, "id"] },
    secret: false,
  };
  const first = useProducer(c, p, other);
  const again = useProducer(c, p, other);
  assert.equal(first, again);
  assert.equal(list.captures.length, 1);
  assert.deepEqual(list.captures[0][1], {
    kind: "json",
    path: ["items", { key: "name", value: "Ruby" }, "id"],
  });
  assert.ok(other.uses.has(list.name));
  assert.equal(c.replaced.ids, 2);
});
