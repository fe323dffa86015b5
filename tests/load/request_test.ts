/** A step's `request`, one reader per section (lib/load/request.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const load = (request: string) =>
  loadFlow(`name: f\nsteps:\n  - name: s\n    request: ${request}\n`, "t.yaml");
const codes = (request: string) => load(request).problems.map((p) => p.code);

Deno.test("method: upper-cased, GET by default, POST for GraphQL unless given", () => {
  const method = (request: string) => load(request).flow?.steps[0].request?.method;
  assert.equal(method('{url: "http://x.test", method: put}'), "PUT");
  assert.equal(method('{url: "http://x.test"}'), "GET");
  assert.equal(method('{url: "http://x.test", graphql: {query: "{a}"}}'), "POST");
  assert.deepEqual(codes('{url: "http://x.test", method: "GE T"}'), ["bad-method"]);
  assert.deepEqual(codes('{url: "http://x.test", method: TRACE}'), ["bad-method"]);
});

Deno.test("url: a string; without expressions an absolute http(s) URL", () => {
  assert.deepEqual(codes("{url: 5}"), ["wrong-type"]);
  assert.deepEqual(codes("{url: /items}"), ["bad-url"]);
  assert.deepEqual(codes('{url: "${ENV.BASE:-http://x.test}/items"}'), []);
  assert.deepEqual(codes("{method: GET}"), ["missing-key"]);
});

Deno.test("a body on GET or HEAD is refused at its key; query values are kept", () => {
  const [p] = load('{url: "http://x.test", method: HEAD, body: {a: 1}}').problems;
  assert.equal(p.code, "bad-method");
  assert.equal(
    p.message,
    "A HEAD request cannot have a body: the HTTP client refuses to send one.",
  );
  const { flow } = load('{url: "http://x.test", query: {tag: [a, b]}}');
  assert.equal(flow?.steps[0].request?.query?.[0][0], "tag");
});
