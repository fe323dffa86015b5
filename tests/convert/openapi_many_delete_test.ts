/**
 * `convert openapi` on a delete of many that the document describes with
 * nothing to select: `DELETE /roles` ("Delete Multiple Roles") with no
 * body and no parameter, beside `PATCH /roles`, an update of many that
 * selects the items by a list of their keys (`{keys: [...], data: {...}}`),
 * the items at `/roles/{id}`. Found on Directus 10
 * (tests/real/directus_openapi_test.ts): its ten such deletes were sent bare
 * and refused 400 ("\"value\" must contain at least one of [query, keys]");
 * another server could take a bare delete of a collection as "all of them".
 * Such a delete now sends the list its path's update of many selects by,
 * holding an item of the flow's own (a copy of its create: the item's own
 * delete ends the first), never one it did not make, and runs again on the
 * same instance.
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

/** The delete of many as documents write it: no body, and no parameter or an empty list of them. */
const DELETES = {
  "no parameters": { operationId: "deleteRoles", summary: "Delete Multiple Roles" },
  "an empty list of parameters": { operationId: "deleteRoles", parameters: [] },
};

/** The list the update of many selects its items by, as APIs name it. */
const LISTS = ["keys", "ids"];

const document = (list: string, del: object) => ({
  openapi: "3.0.1",
  info: { title: "CMS", version: "1" },
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
            [list]: { type: "array", items: { type: "string" } },
            data: { type: "object", properties: { description: { type: "string" } } },
          },
        }),
        responses: many,
      },
      delete: { ...del, tags: ["Roles"], responses: { "204": { description: "Deleted" } } },
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

/** Directus's roles: a delete of many needs the keys of roles that exist; a bare one is refused. */
function standIn(list: string, roles: Map<string, unknown>, deletedMany: string[][]) {
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
    const body = req.method === "PATCH" || req.method === "DELETE"
      ? await req.json().catch(() => ({}))
      : {};
    const keys = body?.[list];
    const known = Array.isArray(keys) && keys.length > 0 &&
      keys.every((k: string) => roles.has(k));
    if (pathname === "/roles" && req.method === "PATCH" && known) {
      return Response.json({ data: keys.map((k: string) => roles.get(k)) });
    }
    if (pathname === "/roles" && req.method === "DELETE") {
      if (!known) {
        const message = `"value" must contain at least one of [query, ${list}]`;
        return Response.json({ errors: [{ message }] }, { status: 400 });
      }
      deletedMany.push(keys);
      for (const k of keys) roles.delete(k);
      return new Response(null, { status: 204 });
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

for (const list of LISTS) {
  for (const [shape, del] of Object.entries(DELETES)) {
    Deno.test(`convert openapi: a delete of many described with nothing sends the list its update of many selects by, of an item of its own (${list}, ${shape})`, async () => {
      const roles = new Map<string, unknown>();
      const deletedMany: string[][] = [];
      const { runs, flows } = await convertAndRunSuite(
        document(list, del),
        standIn(list, roles, deletedMany),
        { runs: 2 },
      );
      for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
      // One item each run, the flow's own: nothing it did not make, and nothing left behind.
      assert.deepEqual(deletedMany.map((keys) => keys.length), [1, 1]);
      assert.equal(roles.size, 0);
      const flow = flows.get("roles.yaml") ?? "";
      assert.match(
        flow,
        new RegExp(`${list}: \\["\\$\\{steps\\.create_role(_2)?\\.capture\\.id\\}"\\]`),
      );
    });
  }
}
