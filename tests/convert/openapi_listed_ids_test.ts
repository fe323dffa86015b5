/**
 * `convert openapi`: a body's ids of a collection the API lists but nothing
 * in the document makes. Found on an Express multi-tenant API (measured by
 * hand, docs/real-servers.md): a custom role's create requires a list of
 * permission ids (`{name, permissions: [uuid]}`), the permissions are
 * fixed rows the server seeds and `GET /permissions` lists (objects with a
 * UUID `id`), and no path makes or addresses one. The run sent the type's
 * sample UUID, which names no permission (400), and every read, update and
 * delete of the role waited for it. The value is now the id of the first
 * item that listing answers, read before the call. The evidence: the
 * property names the listed collection's noun (its plural, or the noun
 * before an id suffix), its values are of the listing's `id` type and
 * format, and nothing in the document makes such an item. A list of ids of
 * a noun nothing lists, and one whose type differs from the listing's id
 * (an integer beside UUIDs), keep their sample.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const uuid = { type: "string", format: "uuid" };
const uuids = { type: "array", items: uuid };
const ok = (status: string, schema: unknown) => ({
  [status]: { description: "OK", content: json(schema) },
});
const param = (name: string) => ({ name, in: "path", required: true, schema: uuid });
const role = { properties: { id: uuid, name: { type: "string" } } };
const wrapped = (data: unknown) => ({
  allOf: [{ properties: { message: { type: "string" } } }, { properties: { data } }],
});

/** Permissions listed, never made; roles made from them; a badge list of another type. */
function document(): Record<string, unknown> {
  const body = {
    required: ["name", "permissions", "badges"],
    properties: {
      name: { type: "string" },
      permissions: { ...uuids, description: "Array of permission IDs" },
      // Badges are listed with integer ids: a UUID list is none of theirs.
      badges: uuids,
    },
  };
  return {
    openapi: "3.0.3",
    info: { title: "Tenants", version: "1" },
    paths: {
      "/permissions": {
        get: {
          responses: ok("200", wrapped({ type: "array", items: { properties: { id: uuid } } })),
        },
      },
      "/badges": {
        get: {
          responses: ok("200", {
            type: "array",
            items: { properties: { id: { type: "integer" } } },
          }),
        },
      },
      "/roles": {
        post: {
          requestBody: { required: true, content: json(body) },
          responses: ok("201", wrapped(role)),
        },
      },
      "/roles/{role_id}": {
        parameters: [param("role_id")],
        get: { responses: ok("200", wrapped(role)) },
        delete: { responses: { "204": { description: "Gone" } } },
      },
    },
  };
}

const SEEDED = "0b6f2a52-3c1e-4d7a-9a43-5f2f8d6a1c11";
const ROLE = "5d0c9b7e-8a44-4f0e-b1d2-7c3e9f1a2b33";

/** One seeded permission; a role naming any other is refused (400), as the server answers. */
function tenants() {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/permissions") {
      return Response.json({ message: "ok", data: [{ id: SEEDED }] });
    }
    if (pathname === "/badges") return Response.json([{ id: 7 }]);
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    if (req.method === "GET") {
      return Response.json({ message: "ok", data: { id: ROLE, name: "r" } });
    }
    const sent = await req.json();
    if (JSON.stringify(sent.permissions) !== JSON.stringify([SEEDED])) {
      return Response.json({ message: "One or more permission IDs are invalid" }, { status: 400 });
    }
    return Response.json({ message: "ok", data: { id: ROLE, name: sent.name } }, { status: 201 });
  });
}

Deno.test("a body's ids of a listed collection nothing makes take the listing's first id", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), tenants(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const all = [...flows.values()].join("\n");
  assert.match(
    summary,
    /permissions\[\] of POST \/roles ← GET \/permissions \$\.json\.data\[0\]\.id/,
  );
  // The listing is read before the create that names its item.
  assert.ok(all.indexOf("GET /permissions") < all.indexOf("POST /roles"), all);
  // An integer-keyed listing names none of a UUID list: its sample stays.
  assert.doesNotMatch(summary, /badges.* ← GET \/badges/);
});
