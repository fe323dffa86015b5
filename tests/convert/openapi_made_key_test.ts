/**
 * `convert openapi` on a create whose body holds the item's own key: the
 * member its answer holds the id at, which the item's paths read
 * (`POST /flows {id, name}` answering `{data: {id}}`, the item at
 * `/flows/{id}`), not required, its example a constant. Found on Directus
 * 10 (tests/real/directus_openapi_test.ts): its flows', operations',
 * users' and versions' creates sent the document's example `id`; every
 * second create of the kind in a run (a copy for another flow, a second
 * item for a second delete) and every create of a second run on the same
 * instance named an item that exists (400 "Value for field "id" has to be
 * unique"). The server makes the key it answers: the create leaves it out.
 * A key the schema requires is still sent.
 *
 * The stand-in runs on 127.0.0.1 and answers as Directus does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** How the key is typed: free text with a uuid example (Directus's), or a uuid. */
const KEYS = {
  "text with a uuid example": { type: "string", example: "2f24211d-d928-469a-aea3-3c8f53d4e426" },
  "a uuid": { type: "string", format: "uuid", example: "2f24211d-d928-469a-aea3-3c8f53d4e426" },
};

const document = (key: unknown) => {
  const flow = {
    type: "object",
    properties: { id: key, name: { type: "string", example: "Update Articles Flow" } },
  };
  const one = { "200": { description: "A flow", ...json({ properties: { data: flow } }) } };
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  return {
    openapi: "3.0.1",
    info: { title: "Automation", version: "1" },
    paths: {
      "/flows": {
        post: {
          operationId: "createFlow",
          tags: ["Flows"],
          requestBody: json({ anyOf: [flow] }),
          responses: one,
        },
      },
      "/flows/{id}": {
        get: { operationId: "getFlow", tags: ["Flows"], parameters: [id], responses: one },
        delete: {
          operationId: "deleteFlow",
          tags: ["Flows"],
          parameters: [id],
          responses: { "204": { description: "Deleted" } },
        },
      },
    },
  };
};

/** Directus's flows: a key that exists is refused; the server makes one when none is sent. */
function standIn(flows: Map<string, unknown>) {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const item = /^\/flows\/([^/]+)$/.exec(pathname)?.[1];
    if (pathname === "/flows" && req.method === "POST") {
      const body = await req.json();
      const key = String(body.id ?? crypto.randomUUID());
      if (flows.has(key)) {
        const message = `Value for field "id" has to be unique.`;
        return Response.json({ errors: [{ message }] }, { status: 400 });
      }
      const row = { ...body, id: key };
      flows.set(key, row);
      return Response.json({ data: row });
    }
    if (item && flows.has(item) && req.method === "GET") {
      return Response.json({ data: flows.get(item) });
    }
    if (item && req.method === "DELETE" && flows.delete(item)) {
      return new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  });
}

for (const [shape, key] of Object.entries(KEYS)) {
  Deno.test(`convert openapi: a create leaves out the key its answer holds for the item's paths (${shape})`, async () => {
    // An item of the document's example key exists, as after any earlier run or copy.
    const flows = new Map<string, unknown>([[key.example, { id: key.example }]]);
    const { runs, flows: files } = await convertAndRunSuite(document(key), standIn(flows), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.doesNotMatch(files.get("flows.yaml") ?? "", /2f24211d/);
    assert.equal(flows.size, 1);
  });
}
