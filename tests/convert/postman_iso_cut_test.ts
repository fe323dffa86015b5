/**
 * The time a pre-request script writes as ISO text cut short of its zone, proven against Newman:
 * `new Date().toISOString().slice(0, 23)` (a forum's date search, measured by hand: flowrun sent
 * `{{EndTime}}` as written and the server answered 400 where Newman's run passed), and the other
 * spellings of the same two cuts a server without time zones takes (Python's `fromisoformat`
 * before 3.11, Java's `LocalDateTime`): to the second (`slice(0, 19)`, `substring`, `substr`,
 * `slice(0, -5)`, `split(".")[0]`) and to the millisecond (`slice(0, 23)`, `slice(0, -1)`,
 * `replace("Z", "")`), of `new Date()` and of a `Date` kept in a local and moved. The server the
 * test starts takes a body only when every field has the cut's shape and is near the time of the
 * request, as such a server does; both runners must be answered 201.
 */
import assert from "node:assert/strict";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

/** Each variable, the expression the script sets it to, its shape, and its shift from now. */
const CUTS: [string, string, RegExp, number][] = [
  ["ms", "new Date().toISOString().slice(0, 23)", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/, 0],
  ["sec", "new Date().toISOString().slice(0, 19)", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, 0],
  ["sub", "new Date().toISOString().substring(0, 19)", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, 0],
  ["substr", "new Date().toISOString().substr(0, 23)", /^[\d-]{10}T[\d:]{8}\.\d{3}$/, 0],
  ["tail", "new Date().toISOString().slice(0, -1)", /^[\d-]{10}T[\d:]{8}\.\d{3}$/, 0],
  ["tail5", "new Date().toISOString().slice(0, -5)", /^[\d-]{10}T[\d:]{8}$/, 0],
  ["noz", "new Date().toISOString().replace('Z', '')", /^[\d-]{10}T[\d:]{8}\.\d{3}$/, 0],
  ["dot", 'new Date().toISOString().split(".")[0]', /^[\d-]{10}T[\d:]{8}$/, 0],
  ["later", "d.toISOString().slice(0, 19)", /^[\d-]{10}T[\d:]{8}$/, DAY],
  ["held", "iso.slice(0, 23)", /^[\d-]{10}T[\d:]{8}\.\d{3}$/, 0],
];

const SCRIPT = [
  "const d = new Date();",
  "d.setDate(d.getDate() + 1);",
  "const iso = new Date().toISOString();",
  ...CUTS.map(([key, expr]) => `pm.environment.set("${key}", ${expr});`),
];

/** Whether `text`, read as UTC, is within a minute of now plus `shift`. */
const near = (text: string, shift: number) => {
  const at = Date.parse(`${text}Z`);
  return Math.abs(at - (Date.now() + shift)) < 60_000;
};

Deno.test("postman iso cut: ISO text cut short of its zone is sent as Newman sends it", async () => {
  const judge = bodyJudge((body) =>
    CUTS.every(([key, , shape, shift]) => {
      const sent = String(body[key]);
      return shape.test(sent) && near(sent, shift);
    })
  );
  const dir = await Deno.makeTempDir();
  try {
    const raw = `{${CUTS.map(([key]) => `"${key}": "{{${key}}}"`).join(", ")}}`;
    const collection = {
      info: { name: "Cuts", schema: V21 },
      variable: [{ key: "baseUrl", value: judge.url }],
      item: [{
        name: "Search",
        event: [
          { listen: "prerequest", script: { exec: SCRIPT } },
          {
            listen: "test",
            script: { exec: ["pm.test('201', () => pm.response.to.have.status(201));"] },
          },
        ],
        request: {
          method: "POST",
          url: "{{baseUrl}}/search",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw },
        },
      }],
    };
    const { counts, summary } = await newmanThenFlow(dir, collection, judge.url);
    assert.equal(counts.assertions, 1);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(judge.seen[0]));
    assert.equal(judge.seen.length, 2, summary);
    const flow = judge.seen[1];
    for (const [key, , shape] of CUTS) assert.match(String(flow[key]), shape, JSON.stringify(flow));
    const yaml = await Deno.readTextFile(`${dir}/flows/1_cuts.yaml`);
    assert.match(yaml, /\$\{NOW\.DATETIME_MS\}/);
    assert.match(yaml, /\$\{NOW\.DATETIME\+1d\}/);
  } finally {
    await judge.close();
    await Deno.remove(dir, { recursive: true });
  }
});
