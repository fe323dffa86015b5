/**
 * `convert openapi` on a document that lists HEAD beside GET with the GET's answer schema, as
 * aiohttp-apispec writes every aiohttp route (aiohttp serves HEAD for each GET). MITRE Caldera
 * 5.3.0's served document (measured by hand 2026-11-30, docs/real-servers.md) has 36 such HEAD
 * operations: each answered 200 with no body, as HTTP says a HEAD answer has none (RFC 9110,
 * 9.3.2), and each step failed its `openapi:` check ("the response body is not JSON, so it cannot
 * match a schema"); so did its deletes documented as `204` with a schema, which HTTP gives no body
 * either (15.3.5). Such a body is never there to match: the check still says when the status is
 * one the document does not list, and otherwise passes, saying why nothing was matched.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const item = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
const listed = {
  "200": {
    description: "",
    content: { "application/json": { schema: { type: "array", items: item } } },
  },
};

Deno.test("convert openapi: the openapi check passes a HEAD or 204 answer, which HTTP gives no body", async () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "Items", version: "1" },
    paths: {
      "/items": { get: { responses: listed }, head: { responses: listed } },
      "/items/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        delete: {
          responses: { "204": { description: "No Content", content: listed["200"].content } },
        },
      },
    },
  };
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    seen.push(req.method);
    return req.method === "DELETE"
      ? new Response(null, { status: 204 })
      : Response.json([{ id: 1 }]);
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.deepEqual(seen.toSorted(), ["DELETE", "GET", "HEAD"], summary);
  assert.match(runs[0].stdout, /3 steps: 3 passed/, runs[0].stdout);
});

Deno.test("convert openapi: a HEAD answer of a status the document does not list still fails its check", async () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "Items", version: "1" },
    paths: { "/items": { head: { responses: listed } } },
  };
  const server = serveStandIn(() => new Response(null, { status: 203 }));
  const { runs } = await convertAndRunSuite(document, server);
  assert.match(runs[0].stdout, /documents no response 203 for HEAD \/items/, runs[0].stdout);
});
