/**
 * `convert openapi` on a search whose query parameters are each optional
 * but not all of them, in the shape `swagger-jsdoc` writes from an Express
 * API's comments (`GET /api/users/search?email&name`, "Find user by email
 * and/or name", documented `400: Missing query parameters`, `404: User not
 * found`). The converter left both out, as any optional query parameter,
 * and the search was refused 400 on every run (a real Express API on
 * SQLite: 5 of 6 operations 2xx). The document's own answer is the
 * evidence: a call whose query parameters are all optional, documented to
 * refuse a request missing them, is sent one, the first its collection's
 * create answers (`email`), read from that answer, so the search finds the
 * item the flow made; with no such answer, the first parameter.
 *
 * The stand-in runs on 127.0.0.1, keeps users in memory and refuses a
 * search with neither parameter (400) or matching no user (404).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = { $ref: "#/components/schemas/User" };
const text = { type: "string" };
const id = { in: "path", name: "id", required: true, schema: { type: "integer" } };

/** Users with a search documented to refuse a request missing its query as `refusal` says. */
function document(refusal: Record<string, unknown>) {
  const fields = { type: "object", properties: { name: text, email: text } };
  return {
    openapi: "3.0.0",
    info: { title: "My API", version: "1.0.0" },
    paths: {
      "/api/users": {
        post: {
          summary: "Create a new user",
          requestBody: { required: true, ...json({ ...fields, required: ["name", "email"] }) },
          responses: { "201": { description: "User created", ...json(ref) } },
        },
        get: {
          responses: { "200": { description: "List", ...json({ type: "array", items: ref }) } },
        },
      },
      "/api/users/{id}": {
        get: {
          parameters: [id],
          responses: { "200": { description: "User found", ...json(ref) } },
        },
        put: {
          parameters: [id],
          requestBody: json(fields),
          responses: { "200": { description: "Updated user" } },
        },
        delete: { parameters: [id], responses: { "204": { description: "User deleted" } } },
      },
      "/api/users/search": {
        get: {
          summary: "Find user by email and/or name",
          parameters: [
            { in: "query", name: "email", schema: text },
            { in: "query", name: "name", schema: text },
          ],
          responses: {
            "200": { description: "User found", ...json(ref) },
            ...refusal,
            "404": { description: "User not found" },
          },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          required: ["id", "name", "email"],
          properties: { id: { type: "integer" }, name: text, email: text },
        },
      },
    },
  };
}

/** An Express-and-SQLite users API held in memory. */
function standIn(seen: Map<string, number[]>) {
  const users = new Map<number, { id: number; name: string; email: string }>();
  let next = 1;
  return serveStandIn(async (req) => {
    const url = new URL(req.url);
    const answer = (body: unknown, status = 200) => {
      const key = `${req.method} ${url.pathname.replace(/\/\d+$/, "/{id}")}`;
      seen.set(key, [...seen.get(key) ?? [], status]);
      return status === 204 ? new Response(null, { status }) : Response.json(body, { status });
    };
    if (url.pathname === "/api/users/search") {
      const email = url.searchParams.get("email");
      const name = url.searchParams.get("name");
      if (!email && !name) return answer({ error: "At least email or name must be provided" }, 400);
      const found = [...users.values()].find((u) =>
        (!email || u.email === email) && (!name || u.name === name)
      );
      return found ? answer(found) : answer({ error: "User not found" }, 404);
    }
    if (url.pathname === "/api/users") {
      if (req.method === "GET") return answer([...users.values()]);
      const { name, email } = await req.json();
      if (!name || !email) return answer({ error: "Invalid user data" }, 400);
      const user = { id: next++, name, email };
      users.set(user.id, user);
      return answer(user, 201);
    }
    const user = users.get(Number(url.pathname.split("/").at(-1)));
    if (!user) return answer({ error: "User not found" }, 404);
    if (req.method === "DELETE") users.delete(user.id);
    if (req.method === "PUT") Object.assign(user, await req.json());
    return answer(user, req.method === "DELETE" ? 204 : 200);
  });
}

for (
  const description of [
    "Missing query parameters",
    "At least email or name must be provided",
    "A query parameter is required",
  ]
) {
  Deno.test(`convert openapi: a search refused "${description}" is sent the created item's field`, async () => {
    const seen = new Map<string, number[]>();
    const { runs, flows, summary } = await convertAndRunSuite(
      document({ "400": { description } }),
      standIn(seen),
      { runs: 2 },
    );
    assert.deepEqual(seen.get("GET /api/users/search"), [200, 200], summary + runs[0].stdout);
    assert.equal(runs[0].code, 0, runs[0].stdout);
    assert.equal(runs[1].code, 0, runs[1].stdout);
    const text = [...flows.values()].join("\n");
    // One parameter is enough: the first the create answers, read from that answer.
    assert.match(text, /email: \$\{steps\.[a-z_]+\.capture\.email\}/);
    assert.doesNotMatch(text, /name: \$\{steps\.[a-z_]+\.capture\.name\}/);
  });
}

Deno.test("convert openapi: a search documenting no such refusal keeps its optional query left out", async () => {
  const seen = new Map<string, number[]>();
  await convertAndRunSuite(document({ "400": { description: "Invalid input" } }), standIn(seen));
  assert.deepEqual(seen.get("GET /api/users/search"), [400]);
});
