/**
 * `convert openapi` on a flow where one word names two kinds of path
 * parameter: an untyped `{id}` that an update names itself (the run's own
 * text, `id-…`) and an `{id}` the document types as an integer, which no
 * operation is seen to make. Found on a FastAPI appointments API (measured by
 * hand, 2026-11-30): its untagged flow made `vars.id` as text for an
 * employee's appointment update (`PUT /api/employee/appointment/{id}`, no
 * type) and sent that same text to the message update and delete
 * (`/api/messenger/message/{id}`, `type: integer`), refused 422 without the
 * summary asking for anything. A number is never the run's text name of the
 * same word: each kind is a var of its own, and the integer one is a
 * placeholder the summary asks for, holding a number.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const answer = { 200: { description: "Done", ...json({}) } };
const id = (schema: Record<string, unknown>) => ({
  name: "id",
  in: "path",
  required: true,
  schema: { title: "Id", ...schema },
});

const document = {
  openapi: "3.0.2",
  info: { title: "appointments", version: "1" },
  paths: {
    "/api/things/{id}": {
      put: {
        operationId: "putThing",
        parameters: [id({})],
        requestBody: json({ type: "object", properties: { status: { type: "string" } } }),
        responses: answer,
      },
    },
    "/api/chat": {
      post: {
        operationId: "send",
        requestBody: json({ type: "object", properties: { text: { type: "string" } } }),
        responses: answer,
      },
    },
    "/api/chat/message/{id}": {
      delete: { operationId: "unsend", parameters: [id({ type: "integer" })], responses: answer },
    },
  },
};

Deno.test("convert openapi: an integer path parameter is never the run's text name of the same word", async () => {
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    const message = /^\/api\/chat\/message\/(.*)$/.exec(path)?.[1];
    if (message !== undefined && !/^\d+$/.test(message)) {
      return Response.json({ detail: [{ msg: "value is not a valid integer" }] }, { status: 422 });
    }
    return Response.json({ ok: true });
  });
  const { runs, summary, flows } = await convertAndRunSuite(document, server);
  assert.match(summary, /path parameter id of DELETE \/api\/chat\/message\/\{id\}/, summary);
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /\/api\/things\/\$\{vars\.id\}/, flow);
  assert.doesNotMatch(flow, /\/api\/chat\/message\/\$\{vars\.id\}/, flow);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
  assert.ok(seen.includes("DELETE /api/chat/message/1"), seen.join("\n"));
});
