/**
 * A request whose body or URL a pre-request script rewrites: a course forum's
 * students' suite (Flask, measured by hand, docs/real-servers.md) sends every
 * body through `req.json({ msg: … })`, a helper its collection script defines
 * that calls `pm.request.body.update(…)`. flowrun sends the request as the
 * collection holds it (an empty body), and the summary said nothing of it: 6
 * of 14 answers were 400 where Newman's were 200. The summary now names each
 * such request.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const script = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });
const item = (name: string, ...pre: string[]) => ({
  name,
  event: pre.length > 0 ? [script("prerequest", ...pre)] : [],
  request: { method: "POST", url: "http://127.0.0.1:9/post", body: { mode: "raw", raw: "" } },
});

const COLLECTION = JSON.stringify({
  info: { name: "Forum", schema: V21 },
  event: [script(
    "prerequest",
    "req = {",
    "  json(body) { pm.request.body.update({ mode: 'raw', raw: JSON.stringify(body) }); },",
    "  log() { console.log(pm.request.url.toString()); },",
    "};",
  )],
  item: [
    item("Through a helper", "req.json({ msg: 'hi' });"),
    // A URL made of text or variables is sent (postman_url_write_test.ts); one computed is named.
    item("Directly", "pm.request.url.update(pm.request.url.toString() + '/other');"),
    item("Untouched", "req.log();"),
    // A URL assigned whole, built by a function (a data-driven Restful Booker suite's, from a row).
    item(
      "Assigned",
      'let url = pm.environment.get("baseUrl") + "/booking";',
      "pm.request.url = withFilters(url);",
    ),
  ],
});

Deno.test("postman request rewrite: a request a pre-request script rewrites, itself or through a helper, is named in the summary", () => {
  const { summary } = convertPostman(COLLECTION);
  assert.deepEqual(summary.rewritten, ["Through a helper", "Directly", "Assigned"]);
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /pre-request script rewrites .*: Through a helper, Directly, Assigned\./);
});
