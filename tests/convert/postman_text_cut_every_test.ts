/**
 * Text a test script cuts from an answer's member by replacing every
 * occurrence (`json.id.replace(/-/g, "")`, `replaceAll("-", "")`, a class
 * `/\s/g`) and by both ends counted from the end (`json.token.slice(-6, -2)`):
 * the variable a later request sends holds what Newman's holds, for values with
 * none, one and several occurrences and for texts shorter than the cut. A
 * replacement that is not empty is named, never sent wrong.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** What the answer holds, and each set's expression of it. */
const ANSWER = {
  uuid: "3f2a-9b1c-44de-a0f1-77aa",
  none: "abcdef",
  one: "ab-cd",
  spaced: " a b\tc ",
  token: "abcdefghij",
  short: "abc",
};
const SETS: [string, string][] = [
  ["every", 'json.uuid.replace(/-/g, "")'],
  ["all", 'json.uuid.replaceAll("-", "")'],
  ["none", 'json.none.replace(/-/g, "")'],
  ["one", 'json.one.replace(/-/g, "")'],
  ["spaces", 'json.spaced.replace(/\\s/g, "")'],
  ["middle", "json.token.slice(-6, -2)"],
  ["shortmid", "json.short.slice(-6, -2)"],
  ["nothing", "json.token.slice(-2, -6)"],
];

function collection(base: string) {
  const exec = [
    "var json = pm.response.json();",
    ...SETS.map(([name, expr]) => `pm.collectionVariables.set("${name}", ${expr});`),
  ];
  const path = SETS.map(([name]) => `${name}={{${name}}}`).join("&");
  return {
    info: { name: "Cuts", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      {
        name: "Read",
        event: [{ listen: "test", script: { exec } }],
        request: { method: "GET", url: "{{baseUrl}}/answer" },
      },
      { name: "Send", request: { method: "GET", url: `{{baseUrl}}/echo?${path}` } },
    ],
  };
}

/** Answers `ANSWER` at /answer and keeps each /echo query it is sent. */
function echo() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/echo") seen.push(decodeURIComponent(url.search));
    return Response.json(url.pathname === "/answer" ? ANSWER : {});
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman text cut every: every occurrence replaced and both ends from the end, as Newman cuts them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-cut-every-" });
  const api = echo();
  try {
    const { summary } = await newmanThenFlow(dir, collection(api.url), api.url);
    assert.doesNotMatch(summary, /cannot express/, summary);
    assert.equal(api.seen.length, 2, api.seen.join("\n"));
    const [newman, flow] = api.seen;
    assert.match(
      newman,
      /every=3f2a9b1c44dea0f177aa&all=3f2a9b1c44dea0f177aa&none=abcdef&one=abcd/,
    );
    assert.match(newman, /middle=efgh&shortmid=a&nothing=$/);
    assert.equal(flow, newman);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman text cut every: a replacement that is not empty is named, not sent wrong", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[0].event![0].script.exec = [
    "var json = pm.response.json();",
    'pm.collectionVariables.set("every", json.uuid.replace(/-/g, "_"));',
  ];
  const text = formatPostmanSummary(convertPostman(JSON.stringify(c)).summary, "out");
  assert.match(text, /sets \{\{every\}\} in a way flowrun cannot express/, text);
});
