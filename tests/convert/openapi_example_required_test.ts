/**
 * `convert openapi`: a body example that leaves out a member its own schema
 * requires is sent with that member added from the schema. Found on a Koa
 * job board API whose hand-written YAML document gives the organization's
 * create an example without the `name` its schema requires; the server
 * validates each request against that very document (koa-oas3), so the
 * example as written was refused (400 "should have required property
 * 'name'"), and every read, update and delete of the organization waited
 * for it. The schema is what a validating server checks; the example's own
 * values are kept.
 *
 * The stand-in below refuses, with 400, a create missing a required member.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers } from "../support/openapi_doc_parts.ts";

const shelf = {
  type: "object",
  required: ["label", "capacity"],
  properties: {
    label: { type: "string" },
    capacity: { type: "integer", minimum: 1, example: 12 },
    note: { type: "string" },
  },
};
const made = { type: "object", properties: { id: { type: "integer" }, label: { type: "string" } } };

const document = {
  openapi: "3.0.0",
  info: { title: "Shelves", version: "1" },
  paths: {
    "/shelves": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: shelf,
              examples: { first: { value: { label: "Tall oak", note: "by the door" } } },
            },
          },
        },
        responses: answers(made),
      },
    },
  },
};

Deno.test("a body example missing a member its schema requires is sent with it, its own values kept", async () => {
  const sent: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.json();
    sent.push(body);
    if (typeof body.label !== "string" || typeof body.capacity !== "number") {
      return Response.json({ message: "should have required property" }, { status: 400 });
    }
    return Response.json({ id: sent.length, label: body.label });
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, `${summary}\n${runs[0].stdout}\n${runs[0].stderr}`);
  assert.deepEqual(sent, [{ label: "Tall oak", note: "by the door", capacity: 12 }]);
});
