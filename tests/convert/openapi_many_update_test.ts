/**
 * `convert openapi` on an update of many: a PATCH of a collection's own path
 * (`PATCH /roles`, its items at `/roles/{id}`) whose body requires nothing
 * and holds a list of text (the items to update) and an object (what to
 * change in them). Found on Directus 10 (tests/real/directus_openapi_test.ts):
 * its ten `PATCH /<collection>` ("Update Multiple Roles", `{keys: [...],
 * data: {...}}`) were sent `{}`, and refused 400 `"data" is required`. Such
 * a body now sends the list holding the flow's own item (the capture its
 * item operations read) and the object with something to change, as a
 * PATCH of one item does (its first text property). A list named for
 * another collection keeps that collection's item
 * (tests/convert/openapi_listed_items_test.ts).
 *
 * The stand-in runs on 127.0.0.1 and answers as Directus does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const role = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    name: { type: "string", example: "Interns" },
    description: { type: "string" },
    enforce_tfa: { type: "boolean" },
  },
};
const one = { "200": { description: "A role", ...json({ properties: { data: role } }) } };
const many = {
  "200": {
    description: "Roles",
    ...json({ properties: { data: { type: "array", items: role } } }),
  },
};
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** What the update of many changes: an object, or one `anyOf` branch naming the item's schema. */
const CHANGES = {
  object: {
    type: "object",
    properties: { enforce_tfa: { type: "boolean" }, description: { type: "string" } },
  },
  "anyOf of the item's schema, its id first": { anyOf: [{ $ref: "#/components/schemas/Role" }] },
};

const document = (DATA: unknown) => ({
  openapi: "3.0.1",
  info: { title: "CMS", version: "1" },
  components: { schemas: { Role: role } },
  paths: {
    "/roles": {
      get: { operationId: "getRoles", tags: ["Roles"], responses: many },
      post: {
        operationId: "createRole",
        tags: ["Roles"],
        requestBody: json({ properties: { name: { type: "string", example: "Interns" } } }),
        responses: one,
      },
      patch: {
        operationId: "updateRoles",
        tags: ["Roles"],
        summary: "Update Multiple Roles",
        requestBody: json({
          type: "object",
          properties: {
            keys: { type: "array", items: { type: "string" } },
            data: DATA,
          },
        }),
        responses: many,
      },
    },
    "/roles/{id}": {
      get: { operationId: "getRole", tags: ["Roles"], parameters: [id], responses: one },
      delete: {
        operationId: "deleteRole",
        tags: ["Roles"],
        parameters: [id],
        responses: { "204": { description: "Deleted" } },
      },
    },
  },
});

/** Directus's roles: a bulk update needs `keys` of roles that exist and a `data` to change. */
function standIn(updated: string[][]) {
  const roles = new Map<string, Record<string, unknown>>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const item = /^\/roles\/([^/]+)$/.exec(pathname)?.[1];
    if (pathname === "/roles" && req.method === "POST") {
      const made = { id: crypto.randomUUID(), ...(await req.json()) };
      roles.set(made.id, made);
      return Response.json({ data: made });
    }
    if (pathname === "/roles" && req.method === "GET") {
      return Response.json({ data: [...roles.values()] });
    }
    if (pathname === "/roles" && req.method === "PATCH") {
      const body = await req.json();
      if (
        typeof body.data !== "object" || Object.keys(body.data ?? {}).length === 0 ||
        "id" in body.data
      ) {
        return Response.json({ errors: [{ message: '"data" is required' }] }, { status: 400 });
      }
      if (!Array.isArray(body.keys) || !body.keys.every((k: string) => roles.has(k))) {
        return Response.json({ errors: [{ message: "Invalid keys" }] }, { status: 400 });
      }
      updated.push(body.keys);
      return Response.json({ data: body.keys.map((k: string) => roles.get(k)) });
    }
    if (item && roles.has(item) && req.method === "GET") {
      return Response.json({ data: roles.get(item) });
    }
    if (item && req.method === "DELETE" && roles.delete(item)) {
      return new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  });
}

for (const [shape, data] of Object.entries(CHANGES)) {
  Deno.test(`convert openapi: an update of many sends the flow's own item in its list and something to change (${shape})`, async () => {
    const updated: string[][] = [];
    const { runs, flows } = await convertAndRunSuite(document(data), standIn(updated), { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(updated.length, 2);
    assert.equal(updated[0].length, 1);
    const flow = flows.get("roles.yaml") ?? "";
    assert.match(flow, /keys: \["\$\{steps\.create_role\.capture\.id\}"\]/);
    // Not the item's id: changing the key is no update of the item.
    assert.match(flow, /data:\n\s+(description|name): /);
  });
}
