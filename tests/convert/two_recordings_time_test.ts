import assert from "node:assert/strict";
import { correlateTwo } from "../../lib/convert/two_recordings_correlate.ts";
import { recordsOf } from "../support/har_records.ts";

/** A save the page made, stamped with its clock: `stamp` in the body, `at` in a header. */
const save = (stamp: string, at: string) =>
  recordsOf([{
    method: "PUT",
    url: "https://a.test/recipes/default/tiddlers/Orders",
    headers: [["x-client-time", at]],
    body: JSON.stringify({ title: "Orders", created: stamp, modified: stamp }),
  }]);

const convert = (first: string[], second: string[]) => {
  const a = save(first[0], first[1]);
  const b = save(second[0], second[1]);
  return correlateTwo(a, b, a.map((r) => ({ records: [r] })), "a").c;
};

/** The `created` the flow's save sends (the body is the writer's YAML map). */
const createdOf = (c: ReturnType<typeof convert>) => {
  const body = c.steps[0].body as unknown as { entries: [string, unknown][] };
  return body.entries.find(([k]) => k === "created")?.[1];
};

Deno.test("two recordings: a time the page read from its clock is sent as recorded, never as hex", () => {
  // Seen on TiddlyWiki: `created` and `modified` (YYYYMMDDHHmmssSSS, 17 digits) differed between
  // the recordings and were written as ${RANDOM.HEX_17}: letters where the wiki keeps a date.
  const c = convert(["20261126023627781", "1764124587781"], ["20261126023705123", "1764124625123"]);
  const sent = JSON.stringify([c.steps[0].body, c.steps[0].headers, c.vars]);
  assert.ok(!sent.includes("RANDOM") && !sent.includes("vars.created"), sent);
  assert.equal(createdOf(c), "20261126023627781");
  assert.deepEqual(c.steps[0].headers, [["x-client-time", "1764124587781"]]);
  // Nor a variable to ask for.
  assert.deepEqual([...c.env.keys()].filter((n) => n !== "BASE_URL"), []);
});

Deno.test("two recordings: each clock's form is a time; other digits and hex stay fresh", () => {
  const forms: [string, string][] = [
    ["20261126023627", "20261127110305"], // compact date-time, seconds
    ["1764124587", "1764124625"], // Unix seconds
    ["1764124587781", "1764124625123"], // Unix milliseconds
    ["2026-11-26T02:36:27.781Z", "2026-11-26T02:37:05.123Z"], // ISO 8601 (a variable before)
    ["2026-11-26T02:36:27Z", "2026-11-26T02:36:59Z"], // only seconds differ (RUN_ID before)
    ["2026-11-26T03:36:27+01:00", "2026-11-27T03:37:05+01:00"], // with an offset
  ];
  for (const [a, b] of forms) {
    const c = convert([a, "1"], [b, "1"]);
    assert.equal(createdOf(c), a, `${a} / ${b}`);
  }
  // Not a time: a month 13, hex with letters, an ISO month 13 (made fresh or asked for).
  const notTimes = [
    ["20261326023627781", "20261326023705123"],
    ["0a1b2c3d4e", "9f8e7d6c5b"],
    ["2026-13-26T02:36:27Z", "2026-13-26T02:36:59Z"],
  ];
  for (const [a, b] of notTimes) {
    const c = convert([a, "1"], [b, "1"]);
    assert.notEqual(createdOf(c), a, `${a} / ${b}`);
  }
});
