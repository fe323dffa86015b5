/**
 * `convert openapi` on a document whose PUT at an item's path has no POST
 * beside it and documents a 404 for an item it cannot find: an Express shop
 * API (measured by hand, `swagger-autogen` comments) updates `PUT /users/{id}`
 * and `PUT /orders/{id}` ("returned when the API fails to find a user with the
 * provided user id"), its users made by a sign-up elsewhere. Such a PUT was
 * read as the create of an item the client names (as WireMock's `PUT
 * /__admin/files/{fileId}` makes a file), so the run made up the id
 * (`id-${RANDOM.HEX_8}`), 404 for the update and the read. A PUT documenting
 * a 404 at a path of one parameter updates an item that exists: its id now
 * comes from the collection's listing. A PUT documenting none still makes the
 * item at the id the run chooses.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

function document(documents404: boolean) {
  const user = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } };
  const found = { 200: { description: "The user", ...json(user) } };
  const missing = documents404 ? { 404: { description: "No user with the provided user id" } } : {};
  return {
    openapi: "3.0.3",
    info: { title: "users", version: "1" },
    paths: {
      "/users": {
        get: {
          responses: { 200: { description: "All", ...json({ type: "array", items: user }) } },
        },
      },
      "/users/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: { responses: { ...found, ...missing } },
        put: {
          requestBody: json({
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" } },
          }),
          responses: { ...found, ...missing },
        },
      },
    },
  };
}

/** Users `u1` and `u2`; a PUT of another id makes it when `makes`, else 404. */
function standIn(makes: boolean) {
  const users = new Map([["u1", "Ann"], ["u2", "Bob"]]);
  const counted = { existing: 0, made: 0, missing: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/users") return Response.json([...users].map(([id, name]) => ({ id, name })));
    const id = decodeURIComponent(path.slice("/users/".length));
    if (req.method === "PUT") {
      const { name } = await req.json();
      if (!users.has(id) && !makes) return counted.missing++, Response.json({}, { status: 404 });
      if (users.has(id)) counted.existing++;
      else counted.made++;
      users.set(id, name);
    }
    if (!users.has(id)) return counted.missing++, Response.json({}, { status: 404 });
    return Response.json({ id, name: users.get(id) });
  });
  return { server, counted };
}

Deno.test("convert openapi: a PUT documenting a 404 updates an item of its listing", async () => {
  const { server, counted } = standIn(false);
  const { runs, summary } = await convertAndRunSuite(document(true), server);
  assert.match(summary, /\{id\} of PUT \/users\/\{id\} ← GET \/users \$\.json\[0\]\.id/, summary);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
  assert.deepEqual(counted, { existing: 1, made: 0, missing: 0 }, summary);
});

Deno.test("convert openapi: a PUT documenting no 404 makes the item at the id the run chooses", async () => {
  const { server, counted } = standIn(true);
  const { runs, summary } = await convertAndRunSuite(document(false), server);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
  assert.deepEqual(counted, { existing: 0, made: 1, missing: 0 }, summary);
});
