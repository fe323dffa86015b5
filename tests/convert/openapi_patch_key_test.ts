/**
 * `convert openapi` on a partial update whose schema requires nothing and
 * whose first text member is the item's key: LoopBack 4's `UserPartial`
 * `{email, firstName}` of a `User` keyed by `email`, which another template
 * names the item by (`/users/{email}/notes` beside `/users/{id}`; the
 * authentication tutorial app, measured by hand). Before, `PATCH /users/{id}`
 * and `PATCH /users` sent `{email}` alone, and the PostgreSQL connector,
 * which leaves the key out of the SET, answered 500 (an update of nothing).
 * Now an update sends its first text member that is not the key a path names.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn, type StandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (schema: unknown) => ({ "200": { description: "ok", ...json(schema) } });
const text = { type: "string" };
const user = { type: "object", properties: { email: text, firstName: text } };
const count = { type: "object", properties: { count: { type: "number" } } };
const param = (name: string) => [{ name, in: "path", required: true, schema: text }];

/** The document: users keyed by email, updated one by one and all at once. */
function document() {
  return {
    openapi: "3.0.0",
    info: { title: "keyed users", version: "1" },
    paths: {
      "/users": {
        post: { requestBody: json(user), responses: ok(user) },
        patch: { requestBody: json(user), responses: ok(count) },
      },
      "/users/{id}": {
        patch: {
          parameters: param("id"),
          requestBody: json(user),
          responses: { "204": { description: "done" } },
        },
      },
      "/users/{email}/notes": {
        post: { parameters: param("email"), requestBody: json({}), responses: ok({}) },
      },
    },
  };
}

/** A server whose update leaves the key out, refusing an update of nothing as the connector does. */
function standIn(): StandIn {
  const users = new Map<string, Record<string, unknown>>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").map(decodeURIComponent);
    const body = await req.json().catch(() => ({}));
    if (req.method === "POST" && path.length === 2) {
      users.set(body.email, body);
      return Response.json(body);
    }
    if (req.method === "POST") return Response.json({});
    const { email: _key, ...set } = body;
    if (Object.keys(set).length === 0) return Response.json({ error: "syntax" }, { status: 500 });
    if (path.length === 2) return Response.json({ count: users.size });
    if (!users.has(path[2])) return Response.json({ error: "not found" }, { status: 404 });
    return new Response(null, { status: 204 });
  });
}

Deno.test("convert openapi: an update requiring nothing sends a member that is not the item's key", async () => {
  const { summary, runs } = await convertAndRunSuite(document(), standIn());
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
});
