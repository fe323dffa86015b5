/**
 * A URL a pre-request script writes into its own request (a data-driven
 * Restful Booker suite, measured by hand, see docs/real-servers.md, builds its
 * search's URL so): Newman sends what the script wrote, not the URL the
 * collection holds. Every spelling of the write — `pm.request.url = …` of text,
 * of a `let` built up with `+=`, of a template; `pm.request.url.update(…)`;
 * `addQueryParams` on the request or its URL, with text or a list of
 * `{ key, value }` — of text known now or of variables' values is sent as
 * Newman sends it; a write that cannot be said is named in the summary.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";
import { ROW_SEARCH, scriptedGets, urlRecorder } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const WRITES: [string, string[]][] = [
  ["assigned text", [
    'pm.request.url = pm.collectionVariables.get("baseUrl") + "/booking?ok=1&firstname=" + pm.collectionVariables.get("fn");',
  ]],
  ["assigned let", [
    'let url = pm.variables.get("baseUrl") + "/booking";',
    'url += "?ok=1";',
    'url = url + "&lastname=" + pm.collectionVariables.get("fn");',
    "pm.request.url = url;",
  ]],
  ["assigned template", [
    'pm.request.url = `${pm.variables.get("baseUrl")}/booking/${pm.collectionVariables.get("id")}?ok=1`;',
  ]],
  ["update", ['pm.request.url.update("{{baseUrl}}/booking/{{id}}?ok=1");']],
  ["added before assigned", [
    'pm.request.url.query.add("lost=1");',
    'pm.request.url = pm.collectionVariables.get("baseUrl") + "/kept?ok=1";',
  ]],
  ["url addQueryParams text", [
    'pm.request.url.addQueryParams("ok=1&fn=" + pm.collectionVariables.get("fn"));',
  ]],
  ["addQueryParams list", [
    'pm.request.addQueryParams([{ key: "ok", value: "1" }, { key: "id", value: pm.collectionVariables.get("id") }]);',
  ]],
];

/** One search per spelling, each at a URL the server refuses unless the script's is sent. */
function collection(base: string) {
  return {
    info: { name: "Urls", schema: V21 },
    variable: [{ key: "baseUrl", value: base }, { key: "fn", value: "Sally" }, {
      key: "id",
      value: "7",
    }],
    item: scriptedGets(WRITES, "/placeholder"),
  };
}

/** Keeps every path and query it is asked for; 200 to those with `ok=1`, else 400. */
const urlJudge = () =>
  urlRecorder((url) =>
    Response.json({}, { status: url.searchParams.get("ok") === "1" ? 200 : 400 })
  );

Deno.test("postman url write: the URL a pre-request script writes is sent as Newman sends it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-url-write-" });
  const judge = urlJudge();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(judge.url), judge.url);
    assert.equal(counts.requests, WRITES.length, JSON.stringify(counts));
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.doesNotMatch(summary, /Sent as the collection holds them/, summary);
    // Newman's URLs first, then the flow's: the same, in the same order.
    assert.equal(judge.seen.length, 2 * WRITES.length, judge.seen.join("\n"));
    const newman = judge.seen.slice(0, WRITES.length);
    assert.deepEqual(judge.seen.slice(WRITES.length), newman);
    assert.deepEqual(newman.slice(0, 2), [
      "/booking?ok=1&firstname=Sally",
      "/booking?ok=1&lastname=Sally",
    ]);
  } finally {
    await judge.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman url write: a write that cannot be said is named, the URL sent as written", () => {
  const c = collection("http://127.0.0.1:9");
  c.item = [c.item[0], c.item[1]];
  // A URL made by a function, and one whose query a condition decides: neither known now.
  c.item[0].event[0].script.exec = ["pm.request.url = makeUrl();"];
  c.item[1].event[0].script.exec = [
    'let url = pm.collectionVariables.get("baseUrl") + "/booking";',
    'if (Math.random() < 0.5) { url = url + "?firstname=Sally"; }',
    "pm.request.url = url;",
  ];
  const { files, summary } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated: pm\.request\.url = rewrites this request/, flow);
  assert.equal([...flow.matchAll(/\/placeholder/g)].length, 2, flow);
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /Sent as the collection holds them[^\n]*assigned text, assigned let/, text);
});

Deno.test("postman url write: parameters a script adds only when a row's cell is not empty are each row's query column", () => {
  // A data-driven search's idiom: each filter added only when its cell holds text, then joined.
  // Newman sends each row its own URL (postman_row_query_test.ts proves it against Newman).
  const c = collection("http://127.0.0.1:9");
  c.item = [c.item[0]];
  c.item[0].event[0].script.exec = ROW_SEARCH;
  const rows = { path: "rows.csv", text: "firstname,lastname\nJim,\n,Brown\n,\n" };
  const { files, summary } = convertPostman(JSON.stringify(c), undefined, undefined, rows);
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /url: .*\/booking\$\{raw:vars\.assigned_text_query\}/, flow);
  assert.doesNotMatch(flow, /untranslated: pm\.request\.url/, flow);
  const data = JSON.parse(files.find((f) => f.path.endsWith(".data.json"))!.text);
  assert.deepEqual(data.map((r: Record<string, string>) => r.assigned_text_query), [
    "?firstname=Jim",
    "?lastname=Brown",
    "",
  ]);
  const text = formatPostmanSummary(summary, "out");
  assert.doesNotMatch(text, /Sent as the collection holds them/, text);
});
