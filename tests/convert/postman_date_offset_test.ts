/**
 * A time a script moves by a fixed number of milliseconds, as booking and token collections
 * write an expiry or a check-in: `new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString()`.
 * Newman 6.2.2 sent `2026-12-06T01:29:27.777Z` on 2026-11-29; the converter read only `new
 * Date()` without an argument, so the line was named and `{{expires}}` sent as written. Now a
 * `new Date(…)` of `Date.now()` (or `new Date().getTime()`) plus or minus milliseconds known now
 * is the flow's time shifted by them (`${NOW.ISO+7d}`), and its `getTime()` the same in
 * milliseconds; a shift that is no whole number of seconds stays named.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

Deno.test("postman new Date(Date.now() + ms): the time moved by a fixed shift", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Dates", schema: V21 },
      item: [{
        name: "Book",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "pm.environment.set('expires', new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString());",
              "pm.environment.set('since', new Date(new Date().getTime() - 3600000).toISOString());",
              "pm.environment.set('soon', new Date(Date.now() + 90 * 1000).getTime());",
              "pm.environment.set('odd', new Date(Date.now() + 1500).toISOString());",
            ],
          },
        }],
        request: {
          method: "POST",
          url: `${base}/book`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw:
              '{"expires": "{{expires}}", "since": "{{since}}", "soon": {{soon}}, "odd": "{{odd}}"}',
          },
        },
      }],
    }));
    assert.deepEqual(summary.broken?.map((b) => b.name), ["odd"]);
    const before = Date.now();
    const { run, flow } = await runConverted(files, dir);
    const after = Date.now();
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const [sent] = seen as unknown as Record<string, unknown>[];
    const within = (t: number, shift: number) =>
      t >= before + shift - 1000 && t <= after + shift + 1000;
    assert.ok(within(Date.parse(String(sent.expires)), 7 * DAY), JSON.stringify(sent));
    assert.ok(within(Date.parse(String(sent.since)), -3_600_000), JSON.stringify(sent));
    assert.ok(typeof sent.soon === "number" && within(sent.soon, 90_000), JSON.stringify(sent));
    assert.equal(sent.odd, "{{odd}}");
  });
});
