/**
 * `convert openapi` on operations of one path that share their words, where
 * only one documents the parameters: httpbin's `/redirect-to` ("302/3XX
 * Redirects to the given URL." for GET, POST, PUT, PATCH, DELETE; one
 * handler) requires `url` in the GET's query and names no parameter for
 * DELETE and PATCH, which httpbin answers with 500 without it. An operation
 * that declares no parameter and no body, at a path where another method
 * with the same summary requires query parameters, sends those: the words
 * "the given URL" are the same request's. Operations whose words differ,
 * or that declare parameters of their own, are left as they are. The
 * stand-in runs on 127.0.0.1 and answers 500 to a /redirect-to without url.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const SAID = "302/3XX Redirects to the given URL.";
const redirect = { 302: { description: "A redirection." } };
const url = { in: "query", name: "url", required: true, schema: { type: "string" } };

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "redirects", version: "1" },
  paths: {
    "/redirect-to": {
      get: { summary: SAID, parameters: [url], responses: redirect },
      delete: { summary: SAID, responses: redirect },
      patch: { summary: SAID, responses: redirect },
    },
    "/items": {
      get: {
        summary: "Lists the items.",
        parameters: [url],
        responses: { 200: { description: "" } },
      },
      delete: { summary: "Deletes every item.", responses: { 204: { description: "" } } },
    },
  },
};

Deno.test("convert openapi: an operation naming no parameter sends the query its same-worded sibling requires", async () => {
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const { pathname, search } = new URL(req.url);
    seen.push(`${req.method} ${pathname}${search}`);
    if (pathname === "/items") {
      return new Response(null, { status: req.method === "GET" ? 200 : 204 });
    }
    const to = new URL(req.url).searchParams.get("url");
    if (to === null) return new Response("", { status: 500 });
    return new Response(null, { status: 302, headers: { location: to } });
  });
  const { runs: [run] } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(seen.sort(), [
    "DELETE /items",
    "DELETE /redirect-to?url=string",
    "GET /items?url=string",
    "GET /redirect-to?url=string",
    "PATCH /redirect-to?url=string",
  ]);
});
