/**
 * `convert openapi` on a PATCH whose body schema requires nothing and
 * gives no example (LoopBack's `UserPartial`, every property optional):
 * the body was `{}`, an update of nothing, which LoopBack refuses (400
 * "Data is required for the patch request", the passport login example's
 * `PATCH /users/{id}`). It now sends the schema's first text property
 * (a number may be the id; a switch would change what the item does),
 * so the update changes something. A POST or PUT of a schema requiring
 * nothing still sends `{}`, but for the id its path sends (`self_id.ts`).
 * The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const PARTIAL = {
  type: "object",
  properties: {
    id: { type: "number" },
    emailVerified: { type: "boolean" },
    name: { type: "string" },
    email: { type: "string" },
  },
  additionalProperties: false,
};

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "users", version: "1" },
  paths: {
    "/users": {
      post: {
        requestBody: {
          content: {
            "application/json": {
              schema: { ...PARTIAL, required: ["name"] },
            },
          },
        },
        responses: {
          200: {
            description: "The user",
            content: { "application/json": { schema: PARTIAL } },
          },
        },
      },
    },
    "/users/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
      patch: {
        requestBody: { content: { "application/json": { schema: PARTIAL } } },
        responses: { 204: { description: "Updated" } },
      },
      put: {
        requestBody: { content: { "application/json": { schema: PARTIAL } } },
        responses: { 204: { description: "Replaced" } },
      },
    },
  },
};

Deno.test("convert openapi: a PATCH whose schema requires nothing sends a text property, not {}", async () => {
  const bodies: Record<string, unknown> = {};
  const server = serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    bodies[req.method] = body;
    if (req.method === "POST") return Response.json({ id: 1, name: body?.name });
    if (req.method === "PATCH" && Object.keys(body ?? {}).length === 0) {
      return Response.json({ error: "Data is required for the patch request" }, { status: 400 });
    }
    return new Response(null, { status: 204 });
  });
  const { runs: [run] } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(Object.keys(bodies.PATCH as object).sort(), ["id", "name"]);
  // A PUT replaces: it sends what its schema requires, here nothing, and the id its path sends
  // (openapi_update_self_id_test.ts).
  assert.deepEqual(bodies.PUT, { id: 1 });
});

// A LoopBack 4 `CustomerPartial`: its string id (`custId`) first, which the create excludes.
const CUSTOMER = {
  type: "object",
  properties: { custId: { type: "string" }, name: { type: "string" }, city: { type: "string" } },
  additionalProperties: false,
};

Deno.test("convert openapi: a PATCH requiring nothing sends a text property that names no identifier", async () => {
  const doc = structuredClone(DOCUMENT) as typeof DOCUMENT;
  const item = doc.paths["/users/{id}"];
  item.patch.requestBody.content["application/json"].schema = CUSTOMER as never;
  const bodies: Record<string, unknown> = {};
  const server = serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    bodies[req.method] = body;
    if (req.method === "POST") return Response.json({ id: 1, name: body?.name });
    // LoopBack on PostgreSQL sets every member but the id: an id alone is an empty SET (500).
    const set = Object.keys(body ?? {}).filter((k) => k !== "custId");
    if (req.method === "PATCH" && set.length === 0) return Response.json({}, { status: 500 });
    return new Response(null, { status: 204 });
  });
  const { runs: [run] } = await convertAndRunSuite(doc, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(Object.keys(bodies.PATCH as object), ["name"]);
});
