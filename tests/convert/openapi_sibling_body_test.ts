/**
 * `convert openapi` on a document whose create of an item gives no request
 * body while the item's own update describes what an item takes. A
 * course's tasks API (Express, express-openapi-validator's operation
 * handlers, PostgreSQL; measured by hand) documents `POST /tasks` with no
 * `requestBody` and `POST /tasks/{uuid}` (its update) taking a `task`
 * (`description` required); the server inserts `req.body.description`, so
 * the bodiless create was refused by the database, and the unhandled
 * rejection stopped the server: every later step found the connection
 * refused. A create at a collection that declares nothing to send (no
 * body, no query, no header, no form) now sends the body its item's update takes
 * (PUT before PATCH before POST), its read-only members left to the
 * server, whether the update's body is inline or a `requestBodies`
 * reference; the summary no longer lists it as sent with no body. A create
 * whose item has no update with a body, or that takes a header of its own
 * (Glacier's initiate of a multipart upload, beside its part's PUT), is sent
 * bodiless as before.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const TASK = {
  type: "object",
  required: ["owner", "description"],
  properties: {
    id: { type: "string", format: "uuid", readOnly: true },
    owner: { type: "string", format: "uuid", readOnly: true },
    description: { type: "string", example: "Feed the Unicorn" },
  },
};

function document(method: "put" | "patch" | "post" | undefined, viaRef: boolean, header = false) {
  const body = viaRef ? { $ref: "#/components/requestBodies/task" } : {
    required: true,
    ...json({ $ref: "#/components/schemas/task" }),
  };
  const ok = { 200: { description: "Successful", ...json({ type: "object" }) } };
  const item: Record<string, unknown> = { get: { operationId: "getTask", responses: ok } };
  if (method) item[method] = { operationId: "updateTask", requestBody: body, responses: ok };
  return {
    openapi: "3.0.3",
    info: { title: "taskapi", version: "1" },
    components: {
      schemas: { task: TASK },
      requestBodies: { task: { required: true, ...json({ $ref: "#/components/schemas/task" }) } },
    },
    paths: {
      "/tasks": {
        post: {
          operationId: "addTask",
          summary: "Create a new personal task.",
          parameters: header
            ? [{ name: "x-part-size", in: "header", schema: { type: "string" } }]
            : [],
          responses: ok,
        },
      },
      "/tasks/{uuid}": {
        parameters: [{ name: "uuid", in: "path", required: true, schema: { type: "string" } }],
        ...item,
      },
    },
  };
}

function standIn() {
  const counted = { made: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/tasks" && req.method === "POST") {
      const text = await req.text();
      const body = text ? JSON.parse(text) : {};
      if (typeof body.description !== "string" || "owner" in body || "id" in body) {
        counted.refused++;
        return Response.json({ message: "description required" }, { status: 400 });
      }
      counted.made++;
      return Response.json({ id: crypto.randomUUID() });
    }
    return Response.json({});
  });
  return { server, counted };
}

for (const method of ["put", "patch", "post"] as const) {
  for (const viaRef of [false, true]) {
    Deno.test(
      `convert openapi: a create given no body sends what its item's ${method.toUpperCase()} takes${
        viaRef ? " (a requestBodies reference)" : ""
      }`,
      async () => {
        const { server, counted } = standIn();
        const { summary } = await convertAndRunSuite(document(method, viaRef), server);
        assert.doesNotMatch(summary, /Sent with no body[^\n]*POST \/tasks/, summary);
        assert.deepEqual(counted, { made: 1, refused: 0 }, summary);
      },
    );
  }
}

Deno.test("convert openapi: a create whose item has no update with a body is sent bodiless, and named", async () => {
  const { server, counted } = standIn();
  const { summary } = await convertAndRunSuite(document(undefined, false), server);
  assert.match(summary, /Sent with no body[^\n]*POST \/tasks/, summary);
  assert.deepEqual(counted, { made: 0, refused: 1 });
});

Deno.test("convert openapi: a create taking a header of its own is sent bodiless, and named", async () => {
  const { server, counted } = standIn();
  const { summary } = await convertAndRunSuite(document("put", false, true), server);
  assert.match(summary, /Sent with no body[^\n]*POST \/tasks/, summary);
  assert.deepEqual(counted, { made: 0, refused: 1 });
});
