/**
 * `convert openapi` on an operation whose success answer the document
 * lists in several media types (httpbin's `GET /image`: `produces`
 * image/webp, image/svg+xml, image/jpeg, image/png, image/*): the server
 * chooses by `Accept`, and refuses what it cannot serve. flowrun's `*∕*`
 * got httpbin's 406. The step now sends the first listed type as `Accept`,
 * as Swagger UI does with the type it shows selected. An operation with one
 * type leaves the choice to the server, as before. The stand-in runs on
 * 127.0.0.1 and answers 406 to an `Accept` naming no type it has.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const DOCUMENT = {
  swagger: "2.0",
  info: { title: "images", version: "1" },
  paths: {
    "/image": {
      get: {
        produces: ["image/webp", "image/png", "image/*"],
        responses: { 200: { description: "An image." } },
      },
    },
    "/report": {
      get: {
        produces: ["application/json", "text/csv"],
        responses: { 200: { description: "A report.", schema: { type: "object" } } },
      },
    },
    "/ping": {
      get: { produces: ["text/plain"], responses: { 200: { description: "pong" } } },
    },
  },
};

/** Each path's types; an Accept naming none of them is a 406. */
const TYPES: Record<string, string[]> = {
  "/image": ["image/webp", "image/png"],
  "/report": ["application/json", "text/csv"],
  "/ping": ["text/plain"],
};

function standIn(accepts: string[]) {
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    const accept = req.headers.get("accept") ?? "";
    accepts.push(`${path} ${accept}`);
    const type = TYPES[path]?.find((t) => accept.includes(t)) ??
      (path === "/ping" && accept === "*/*" ? "text/plain" : undefined);
    if (!type) return new Response("", { status: 406 });
    const body = type === "application/json" ? "{}" : "x";
    return new Response(body, { headers: { "content-type": type } });
  });
}

Deno.test("convert openapi: an answer documented in several types is asked for in the first", async () => {
  const accepts: string[] = [];
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, standIn(accepts));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(accepts.sort(), [
    "/image image/webp",
    "/ping */*",
    "/report application/json",
  ]);
  const text = [...flows.values()].join("\n");
  assert.equal((text.match(/Accept:/g) ?? []).length, 2, text);
});
