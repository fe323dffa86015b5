/**
 * `convert openapi` on creates whose body schema requires nothing and
 * gives no example (Jupyter Server's `Session` and its contents `PUT`
 * model): the body was `{}`, a create of nothing. Jupyter answers the
 * session's with 400 ("Missing field in JSON data: path", then `type`), and
 * takes a `PUT /api/contents/{path}` of `{}` for "a new untitled file in the
 * folder {path}" (404: no such folder). A POST to a collection now sends
 * every free-text property of the item (not the `uuid` id or a date the
 * server assigns); a PUT at the path the client names
 * sends its first text property, as an update of nothing does. A body that
 * requires something it left to the server stays `{}`
 * (openapi_server_defaults_test.ts). The stand-ins run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

const SESSION = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    path: { type: "string", description: "path to the session" },
    type: { type: "string", description: "session type" },
    created: { type: "string", format: "date-time" },
    kernel: { type: "object", properties: { name: { type: "string" } } },
  },
};

const SESSIONS = {
  openapi: "3.0.0",
  info: { title: "sessions", version: "1" },
  paths: {
    "/sessions": {
      post: {
        requestBody: json(SESSION),
        responses: { 201: { description: "Made", ...json(SESSION) } },
      },
    },
    "/sessions/{session}": {
      parameters: [param("session")],
      get: { responses: { 200: { description: "One", ...json(SESSION) } } },
    },
  },
};

Deno.test("convert openapi: a POST create of a schema requiring nothing sends the item's free text", async () => {
  const bodies: Record<string, unknown>[] = [];
  const made = new Set<string>();
  const server = serveStandIn(async (req) => {
    if (req.method === "POST") {
      const body = await req.json();
      bodies.push(body);
      for (const field of ["path", "type"]) {
        if (typeof body[field] !== "string") {
          return Response.json({ message: `Missing field in JSON data: ${field}` }, {
            status: 400,
          });
        }
      }
      const id = crypto.randomUUID();
      made.add(id);
      return Response.json({ ...body, id }, { status: 201 });
    }
    const id = new URL(req.url).pathname.split("/").at(-1)!;
    return made.has(id) ? Response.json({ id }) : new Response(null, { status: 404 });
  });
  const { runs: [run] } = await convertAndRunSuite(SESSIONS, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(Object.keys(bodies[0]).sort(), ["path", "type"]);
});

const MODEL = {
  type: "object",
  properties: {
    name: { type: "string", description: "The new filename if changed" },
    type: { type: "string", description: "Path dtype ('notebook', 'file', 'directory')" },
    content: { type: "string", description: "The actual body of the document" },
  },
};

const FILES = {
  openapi: "3.0.0",
  info: { title: "files", version: "1" },
  paths: {
    "/files/{path}": {
      parameters: [param("path")],
      put: {
        requestBody: json(MODEL),
        responses: { 201: { description: "Made", ...json({ type: "object" }) } },
      },
      get: { responses: { 200: { description: "One", ...json({ type: "object" }) } } },
    },
  },
};

Deno.test("convert openapi: a PUT create at the client's path of a schema requiring nothing sends one text property", async () => {
  const bodies: Record<string, unknown>[] = [];
  const files = new Set<string>();
  const server = serveStandIn(async (req) => {
    const name = new URL(req.url).pathname.split("/").at(-1)!;
    if (req.method === "PUT") {
      const body = await req.json();
      bodies.push(body);
      // Nothing to save: a new untitled file in the folder {path}, which does not exist.
      if (Object.keys(body).length === 0) return Response.json({}, { status: 404 });
      if (body.type !== undefined && body.type !== "file") {
        return Response.json({}, { status: 400 });
      }
      files.add(name);
      return Response.json({ name }, { status: 201 });
    }
    return files.has(name) ? Response.json({ name }) : Response.json({}, { status: 404 });
  });
  const { runs: [run] } = await convertAndRunSuite(FILES, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(Object.keys(bodies[0]), ["name"]);
});

const USER = {
  type: "object",
  properties: {
    id: { type: "integer", format: "int64" },
    name: { type: "string" },
    email: { type: "string", format: "email" },
    isAdmin: { type: "boolean" },
  },
};

const USERS = {
  openapi: "3.0.0",
  info: { title: "users", version: "1" },
  paths: {
    "/user": {
      post: { requestBody: json(USER), responses: { 200: { description: "Made", ...json(USER) } } },
    },
    "/user/{userId}": {
      parameters: [param("userId")],
      get: { responses: { 200: { description: "One", ...json(USER) } } },
    },
  },
};

// SReview's `POST /user` sent only `name`; its answer's `email` was null, which its own
// response validation refuses (500 "Expected string - got null"). An address is the client's,
// never one a server assigns, and the run makes its own (`${vars.email}`).
Deno.test("convert openapi: a POST create of a schema requiring nothing sends the item's email, the run's own", async () => {
  const bodies: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    if (req.method === "POST") {
      const body = await req.json();
      bodies.push(body);
      if (typeof body.email !== "string") {
        return Response.json({ errors: [{ message: "Expected string - got null." }] }, {
          status: 500,
        });
      }
      return Response.json({ ...body, id: bodies.length });
    }
    return Response.json({ id: 1, name: "n", email: "e@example.com" });
  });
  const { runs: [run], flows } = await convertAndRunSuite(USERS, server, { runs: 2 });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(String(bodies[0].email), /^user-[0-9a-f]{8}@example\.com$/);
  assert.notEqual(bodies[0].email, bodies[1].email, "each run its own address");
  assert.ok(
    ![...flows.values()].some((f) => f.includes("@example.com\n") && !f.includes("RANDOM")),
  );
});

/** RealWorld's shape as a NestJS project documents it: the item under one wrapper, nothing required. */
const WRAPPED = {
  openapi: "3.0.0",
  info: { title: "Articles", version: "1" },
  paths: {
    "/articles": {
      post: {
        requestBody: json({
          type: "object",
          properties: {
            article: {
              type: "object",
              properties: {
                title: { type: "string" },
                body: { type: "string" },
                tagList: { type: "array", items: { type: "string" } },
              },
            },
          },
        }),
        responses: { "201": { description: "" } },
      },
    },
    "/articles/{slug}": {
      get: { parameters: [param("slug")], responses: { "200": { description: "" } } },
    },
  },
};

Deno.test("convert openapi: a POST create whose item is wrapped in one object, requiring nothing, sends the wrapped item's free text", async () => {
  const bodies: { article?: Record<string, unknown> }[] = [];
  const server = serveStandIn(async (req) => {
    if (req.method === "GET") return Response.json({ article: { slug: "a-1" } });
    const body = await req.json();
    bodies.push(body);
    if (typeof body.article?.title !== "string") {
      return Response.json({ message: "title should not be empty" }, { status: 400 });
    }
    return Response.json({ article: { ...body.article, slug: "a-1" } }, { status: 201 });
  });
  const { runs: [run] } = await convertAndRunSuite(WRAPPED, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(Object.keys(bodies[0].article ?? {}), ["title", "body"]);
});
