/**
 * A body a pre-request script writes into its own request (a public project's
 * own collection, measured by hand, see docs/real-servers.md, built every
 * create's body so): Newman sends what the script wrote, not the body the
 * collection holds. Every spelling of the write — `pm.request.body.raw = …`,
 * `pm.request.body.update(…)` with text or with `{ mode: "raw", raw }`,
 * `JSON.stringify` of an object literal, of a `const` holding one, with
 * `null, 2` — of text known now or of variables' values is sent as Newman
 * sends it; a write that cannot be said is named in the summary.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const WRITES: [string, string[]][] = [
  ["raw literal", [
    'pm.request.body.raw = JSON.stringify({ firstname: "Jim", totalprice: 111, ok: true });',
  ]],
  ["raw const", [
    'const name = pm.collectionVariables.get("fn");',
    'const body = { firstname: name, lastname: `${name}son`, dates: { in: "2024-01-01" }, ok: true };',
    "pm.request.body.raw = JSON.stringify(body);",
  ]],
  ["update text", [
    'pm.request.body.update(JSON.stringify({ firstname: pm.environment.get("fn"), ok: true }, null, 2));',
  ]],
  ["update object", [
    'pm.request.body.update({ mode: "raw", raw: JSON.stringify({ firstname: "Ann", tags: ["a", "b"], ok: true }) });',
  ]],
  ["update const object", [
    'const payload = { firstname: "Bilbo", author: pm.collectionVariables.get("fn"), ok: true };',
    "let body = { mode: 'raw', raw: JSON.stringify(payload), options: { raw: { language: 'json' } } };",
    "pm.request.body.update(body);",
  ]],
  ["raw template", [
    'pm.request.body.raw = `{"firstname": "${pm.collectionVariables.get("fn")}", "ok": true}`;',
  ]],
];

/** One create per spelling, each holding a body the server refuses unless the script's is sent. */
function collection(base: string) {
  return {
    info: { name: "Writes", schema: V21 },
    variable: [{ key: "baseUrl", value: base }, { key: "fn", value: "Sally" }],
    item: WRITES.map(([name, exec]) => ({
      name,
      event: [{ listen: "prerequest", script: { exec } }],
      request: {
        method: "POST",
        url: "{{baseUrl}}/bookings",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"firstname": "placeholder"}' },
      },
    })),
  };
}

Deno.test("postman body write: the body a pre-request script writes is sent as Newman sends it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-body-write-" });
  const judge = bodyJudge((b) => b.ok === true);
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(judge.url), judge.url);
    assert.equal(counts.requests, WRITES.length, JSON.stringify(counts));
    assert.doesNotMatch(summary, /Sent as the collection holds them/, summary);
    // Newman's bodies first, then the flow's: the same, in the same order.
    assert.equal(judge.seen.length, 2 * WRITES.length);
    const newman = judge.seen.slice(0, WRITES.length);
    assert.deepEqual(judge.seen.slice(WRITES.length), newman);
    assert.deepEqual(newman[1], {
      firstname: "Sally",
      lastname: "Sallyson",
      dates: { in: "2024-01-01" },
      ok: true,
    });
  } finally {
    await judge.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman body write: a write that cannot be said is named, the body sent as written", () => {
  const c = collection("http://127.0.0.1:9");
  c.item = [c.item[1], c.item[0]];
  // The object is changed after it is declared, and a body is made by a function: neither known.
  c.item[0].event[0].script.exec = [
    ...WRITES[1][1].slice(0, 2),
    "body.firstname = 'X';",
    WRITES[1][1][2],
  ];
  c.item[1].event[0].script.exec = ["pm.request.body.raw = makeBody();"];
  const { files, summary } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated: pm\.request\.body\.raw = rewrites this request/, flow);
  assert.equal([...flow.matchAll(/firstname: placeholder/g)].length, 2, flow);
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /Sent as the collection holds them[^\n]*raw const, raw literal/, text);
});
