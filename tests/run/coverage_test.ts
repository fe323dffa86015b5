import assert from "node:assert/strict";
import { CoverageCollector } from "../../lib/run/coverage.ts";
import { MAX_COVERAGE_REQUESTS } from "../../lib/model/limits.ts";

const DOC = {
  servers: [{ url: "http://api.test/v1" }],
  paths: {
    "/items": { get: { responses: { "200": {}, "4XX": {} } } },
    "/items/{id}": { get: { responses: { "200": {} } } },
  },
};

Deno.test("responses mark operations and response keys; others are undocumented or unserved", () => {
  const c = new CoverageCollector([{ source: "./api.yaml", document: DOC }], 60);
  c.record("GET", "http://127.0.0.1:1/v1/items?page=1", 200);
  c.record("GET", "http://127.0.0.1:1/v1/items?page=2", 200);
  c.record("GET", "http://127.0.0.1:1/v1/items", 404);
  c.record("GET", "http://127.0.0.1:1/v1/items/3", 500);
  c.record("GET", "http://127.0.0.1:1/v1/nope", 404);
  c.record("GET", "http://127.0.0.1:1/v1/nope", 200);
  c.record("GET", "http://127.0.0.1:1/login", 200);
  c.record("GET", "not a url", 200);
  const [got] = c.result((text) => text.replace("nope", "***"));
  assert.deepEqual(got, {
    document: "api.yaml",
    operations: { total: 2, exercised: 2, percent: 100 },
    responses: { total: 3, exercised: 2, percent: 66.6 },
    min: 60,
    items: [
      {
        method: "GET",
        path: "/items",
        exercised: true,
        responses: [{ status: "200", exercised: true }, { status: "4XX", exercised: true }],
        undocumented: [],
      },
      {
        method: "GET",
        path: "/items/{id}",
        exercised: true,
        responses: [{ status: "200", exercised: false }],
        undocumented: [500],
      },
    ],
    unmatched: [{ method: "GET", path: "/v1/***", count: 2 }],
  });
});

Deno.test("a document named from two folders, or by --openapi and a check, is one", () => {
  const c = new CoverageCollector([{ source: "specs/../api.yaml", document: DOC }]);
  const copy = structuredClone(DOC);
  c.addCheck({ source: "../api.yaml", document: copy, file: "flows/a.yaml" });
  c.addCheck({ source: "../../api.yaml", document: copy, file: "flows/x/b.yaml" });
  c.addCheck({ source: "/abs/other.yaml", document: {}, file: "flows/a.yaml" });
  assert.deepEqual(c.result((t) => t).map((r) => r.document), ["api.yaml", "/abs/other.yaml"]);
  // Seen: `a/openapi.yml` by --openapi and `../x/a/openapi.yml` from a flow run in x/, one
  // file parsed twice, was printed as two documents.
  const two = new CoverageCollector([{ source: "a/openapi.yml", document: DOC }]);
  two.addCheck({ source: "../x/a/openapi.yml", document: structuredClone(DOC), file: "f.yaml" });
  two.addCheck({ source: "../x/a/other.yml", document: { paths: {} }, file: "f.yaml" });
  assert.deepEqual(two.result((t) => t).map((r) => r.document), [
    "a/openapi.yml",
    "../x/a/other.yml",
  ]);
  const given = new CoverageCollector([
    { source: "a/openapi.yml", document: DOC },
    { source: "../x/a/openapi.yml", document: structuredClone(DOC) },
  ]);
  assert.deepEqual(given.result((t) => t).map((r) => r.document), ["a/openapi.yml"]);
});

Deno.test("past the bound, distinct requests are counted, not matched, and said", () => {
  const c = new CoverageCollector([{ source: "api.yaml", document: DOC }]);
  for (let i = 0; i <= MAX_COVERAGE_REQUESTS; i++) c.record("GET", `http://h/v1/items/${i}`, 200);
  c.record("GET", "http://h/v1/items/0", 200);
  const [got] = c.result((t) => t);
  assert.equal(got.requests_omitted, 1);
  assert.equal(got.items[1].exercised, true);
});
