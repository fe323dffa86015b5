/**
 * `convert openapi` on an operation whose JSON request body has no schema
 * (`content: {"application/json": {}}`), as `adonis-autoswagger` writes for
 * every route without a `@requestBody` comment (an AdonisJS 6 course API,
 * measured by hand: `POST /logout`). Before, the step sent the JSON text
 * `null`, which Adonis's body parser refuses 422 ("Invalid JSON, only
 * supports object and array"), as Express's strict `express.json()` does.
 * Now it sends `{}`. The stand-in parses as those do.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const document = {
  openapi: "3.0.0",
  info: { title: "Sessions", version: "1" },
  paths: {
    "/logout": {
      post: {
        requestBody: { content: { "application/json": {} } },
        responses: { "200": { description: "OK", content: { "application/json": {} } } },
      },
    },
  },
};

Deno.test("convert openapi: a JSON body of no schema is sent as an object", async () => {
  const sent: string[] = [];
  const standIn = serveStandIn(async (req) => {
    const text = await req.text();
    sent.push(text);
    const parsed = text === "" ? undefined : JSON.parse(text);
    if (parsed === null || typeof parsed !== "object") {
      return Response.json({ message: "Invalid JSON, only supports object and array" }, {
        status: 422,
      });
    }
    return Response.json({ revoked: true });
  });
  const { runs, flows } = await convertAndRunSuite(document, standIn);
  assert.deepEqual(sent.map((t) => JSON.parse(t)), [{}], [...flows.values()].join("\n"));
  assert.equal(runs[0].code, 0, runs[0].stdout);
});
