import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { noteWrites, writtenLater } from "../../../lib/convert/correlate/writes.ts";
import { recordsOf } from "../../support/har_records.ts";

Deno.test("a key a later write sends is written later; a form body counts too", () => {
  const records = recordsOf([
    { url: "https://a.test/task/1", json: { status: "open", title: "x" } },
    { method: "PATCH", url: "https://a.test/task/1", body: '{"status":"done"}' },
    {
      method: "POST",
      url: "https://a.test/task/1/notes",
      mime: "application/x-www-form-urlencoded",
      body: "text=hi",
    },
  ]);
  const c = newCorrelator("a");
  noteWrites(c, records);
  assert.ok(writtenLater(c, "status", records[0]));
  assert.ok(writtenLater(c, "text", records[0]));
  assert.ok(!writtenLater(c, "title", records[0]));
  assert.ok(!writtenLater(c, "status", records[1]));
});
