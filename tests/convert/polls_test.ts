import assert from "node:assert/strict";
import { FRESH_HEADER, groupRequests } from "../../lib/convert/polls.ts";
import { recordsOf } from "../support/har_records.ts";

Deno.test("consecutive polls become one step that loops until the last state", () => {
  const records = recordsOf([
    { method: "POST", url: "https://app.test/jobs", body: "{}", json: { id: "job_7a" } },
    { url: "https://app.test/jobs/job_7a", json: { state: "queued" } },
    { url: "https://app.test/jobs/job_7a", json: { state: "running" } },
    { url: "https://app.test/jobs/job_7a", json: { state: "done" } },
  ]);
  const { groups, repeats } = groupRequests(records);
  assert.equal(groups.length, 2);
  assert.equal(repeats, 2);
  assert.equal(groups[1].records.length, 3);
  assert.equal(groups[1].loop?.value, "done");
});

Deno.test("a request that differs is its own step; FRESH_HEADER names per-request headers", () => {
  const records = recordsOf([{ url: "https://app.test/a" }, { url: "https://app.test/b" }]);
  assert.equal(groupRequests(records).groups.length, 2);
  assert.ok(FRESH_HEADER.test("Idempotency-Key") && !FRESH_HEADER.test("accept"));
});
