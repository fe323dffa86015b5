import assert from "node:assert/strict";
import { correlateTwo } from "../../lib/convert/two_recordings_correlate.ts";
import { convertHar, formatSummary } from "../../lib/convert/har.ts";
import { type EntrySpec, harOf, recordsOf } from "../support/har_records.ts";

const journey = (rid: string, note: string) =>
  recordsOf([
    {
      url: `https://a.test/tenants/0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10/items?rid=${rid}`,
      headers: [["x-csrf-token", "no-check"]],
    },
    { method: "POST", url: "https://a.test/notes", body: JSON.stringify({ note }) },
  ]);

Deno.test("two recordings: equal values are constants, differing ones fresh or variables", () => {
  const first = journey("6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912", "Alice");
  const second = journey("1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6", "Bob");
  const { c, summary } = correlateTwo(first, second, first.map((r) => ({ records: [r] })), "a");
  assert.equal(
    c.steps[0].url,
    "${vars.base_url}/tenants/0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10/items?rid=${RANDOM.UUID}",
  );
  // A secret-named header both sent equal is the app's constant.
  assert.deepEqual(c.steps[0].headers, [["x-csrf-token", "no-check"]]);
  assert.equal(summary.aligned, 2);
  assert.equal(summary.decided.fresh, 1);
  assert.equal(summary.decided.variable, 1);
  assert.ok(summary.decided.constant >= 2);
  assert.ok([...c.env.keys()].some((n) => n.endsWith("_NOTE")));
});

Deno.test("two recordings: an id the page made, sent at two places, is one value a run", () => {
  // Seen on Node-RED's editor: a tab id written as ${RANDOM.HEX_16} at each place, fresh at each
  // use, so the node whose `z` names the tab named none.
  const deploy = (tab: string) =>
    recordsOf([
      {
        method: "POST",
        url: "https://a.test/flows",
        body: JSON.stringify({ flows: [{ id: tab, type: "tab" }, { id: "n1", z: tab }] }),
      },
      { url: `https://a.test/credentials/tab/${tab}` },
    ]);
  const first = deploy("8f3a2b1c9d0e7f61");
  const second = deploy("1b2c3d4e5f607182");
  const { c } = correlateTwo(first, second, first.map((r) => ({ records: [r] })), "a");
  const body = JSON.stringify(c.steps[0].body);
  const refs = [...new Set(body.match(/\$\{[^}]+\}/g))];
  assert.equal(refs.length, 1, body);
  assert.ok(!refs[0].startsWith("${RANDOM"), body);
  assert.ok(c.steps[1].url.endsWith(`/credentials/tab/${refs[0]}`), c.steps[1].url);
  assert.ok(c.vars.some(([, v]) => v === "${RANDOM.HEX_16}"), JSON.stringify(c.vars));
});

Deno.test("two recordings: a credential equal in both is still a variable; a word equal in both is a constant", () => {
  // Seen (issue 53, item 5): x-auth-token and ?signature= equal in both recordings were
  // written into the flow literally, where one recording made them variables.
  const session = (sess: string) =>
    recordsOf([{
      url: `https://a.test/items?signature=sig-AbC123xyz987&sess=${sess}`,
      headers: [["x-auth-token", "tok-9f8e7d6c5b4a3210"], ["x-atlassian-token", "no-check"]],
    }]);
  const first = session("a1b2c3d4e5");
  const second = session("f6e5d4c3b2");
  const { c } = correlateTwo(first, second, first.map((r) => ({ records: [r] })), "a");
  const step = c.steps[0];
  assert.ok(!step.url.includes("sig-AbC123xyz987"), step.url);
  assert.match(step.url, /signature=\$\{ENV\.SIGNATURE\}/);
  const headers = Object.fromEntries(step.headers);
  assert.equal(headers["x-auth-token"], "${ENV.AUTH_TOKEN}");
  assert.equal(headers["x-atlassian-token"], "no-check");
});

Deno.test("two recordings: a row number an answer gave, sent back in a path, is captured, not counted among the URL values sent as recorded", () => {
  // Projectly's `GET /api/projects/2205`: the create answered `{"id": 2205}` (a number), the path
  // holds the text "2205"; the summary said the two differing ids were sent as recorded.
  const specs = (id: number, at: number): EntrySpec[] => [
    { method: "POST", url: "https://a.test/api/projects", body: "{}", json: { id } },
    { url: `https://a.test/api/projects/${id}?_=${at}`, json: { id } },
  ];
  const first = recordsOf(specs(2205, 1795651442244));
  const second = recordsOf(specs(3117, 1795651458164));
  const { c, summary } = correlateTwo(first, second, first.map((r) => ({ records: [r] })), "a");
  assert.match(c.steps[1].url, /\/api\/projects\/\$\{steps\.[a-z_]+\.capture\.[a-z_]+\}\?/);
  // The page's clock in the query is the one value sent as recorded, and the summary says so.
  assert.equal(summary.undecided, 1);
  const { summary: written } = convertHar(harOf(specs(2205, 1795651442244)), {
    second: harOf(specs(3117, 1795651458164)),
  });
  assert.match(formatSummary(written), /\n1 URL value differs but is sent as recorded\./);
});
