/**
 * `convert openapi` on one path served by every method alike, its read
 * answering a message, not a resource: a Sails movie API's `GET|PUT|PATCH
 * /api/v1/account/logout` (2022, `sails-hook-swagger-generator`), each
 * documented with no body and a 200 whose JSON is `oneOf` two texts ("The
 * requesting user agent has been successfully logged out."). The PUT and
 * the PATCH were read as updates of a settings resource and sent the GET's
 * answer back whole, and run only when that answer was captured; the
 * server answers the GET with plain text, so both were skipped and never
 * sent. A read whose every documented answer is a text, number or boolean
 * holds no settings to send back: such a write is sent as the document
 * gives it, without a body, and not made to wait on the read.
 *
 * The stand-in runs on 127.0.0.1 and answers every method with plain text.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const said = (description: string) => ({ type: "string", description });
const answer = {
  "200": {
    description: "Success",
    content: {
      "application/json": { schema: { oneOf: [said("Logged out."), said("A browser.")] } },
    },
  },
};
const op = { tags: ["Logout"], responses: answer };
const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "app", version: "1" },
  paths: { "/account/logout": { get: op, put: op, patch: op } },
};

Deno.test("convert openapi: a read answering a message is no setting its path's writes send back", async () => {
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.text();
    seen.push(`${req.method} ${body}`);
    return new Response("OK", { headers: { "content-type": "text/plain" } });
  });
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, server);
  // The checks of the answer's JSON fail (the server answers text); every method is sent.
  assert.deepEqual(seen.map((s) => s.split(" ")[0]).sort(), ["GET", "PATCH", "PUT"], summary);
  assert.ok(seen.every((s) => s.endsWith(" ")), seen.join("\n"));
  assert.doesNotMatch(runs[0].stdout, /skipped/);
});
