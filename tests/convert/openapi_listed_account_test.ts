/**
 * `convert openapi` on a create whose body names a user that only a listing
 * of users gives, where that listing lists what the sign-up answers. A
 * FastAPI team task manager (measured by hand on 2026-12-01,
 * docs/real-servers.md) assigns a task with `POST /admin/tasks {…,
 * project_id, user_id}`; nothing makes a user but `POST /register`, which
 * answers `UserOut`, and `GET /admin/users` lists `UserOut`s. `user_id` was
 * read from that listing's first entry: the run's own account on a fresh
 * database only. On the second run it was the first run's account, and the
 * status update and the comment, which the server allows only on a task
 * assigned to the caller, answered 404 (11 of 13 operations, 13 on a fresh
 * database). The listing lists accounts, one of which the run made and signs
 * in as: the member is read from the sign-up's answer, the same account on
 * every run. A listing of another kind keeps its first entry.
 *
 * The stand-in below answers as that server does, on 127.0.0.1, with an
 * account of someone else's listed first, as a second run finds it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const int = { type: "integer" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => json({ $ref: `#/components/schemas/${name}` });
const bearer = [{ BearerAuth: [] }];

const document = {
  openapi: "3.0.2",
  info: { title: "Team tasks", version: "1.0.0" },
  paths: {
    "/register": {
      post: {
        requestBody: { required: true, ...ref("UserCreate") },
        responses: { "200": { description: "", ...ref("UserOut") } },
      },
    },
    "/login": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: { $ref: "#/components/schemas/UserCreate" },
            },
          },
        },
        responses: {
          "200": {
            description: "",
            ...json({ properties: { access_token: text, token_type: text } }),
          },
        },
      },
    },
    "/admin/users": {
      get: {
        security: bearer,
        responses: {
          "200": {
            description: "",
            ...json({ type: "array", items: { $ref: "#/components/schemas/UserOut" } }),
          },
        },
      },
    },
    "/admin/tasks": {
      post: {
        security: bearer,
        requestBody: { required: true, ...ref("TaskBase") },
        responses: { "200": { description: "", ...ref("TaskOut") } },
      },
    },
    "/tasks/{task_id}/status": {
      put: {
        security: bearer,
        parameters: [
          { name: "task_id", in: "path", required: true, schema: int },
          { name: "status", in: "query", required: true, schema: text },
        ],
        responses: { "200": { description: "", ...json({}) } },
      },
    },
  },
  components: {
    securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } },
    schemas: {
      UserCreate: {
        type: "object",
        required: ["username", "password"],
        properties: { username: text, password: text },
      },
      UserOut: {
        type: "object",
        required: ["id", "username"],
        properties: { id: int, username: text },
      },
      TaskBase: {
        type: "object",
        required: ["title", "user_id"],
        properties: { title: text, user_id: int },
      },
      TaskOut: {
        type: "object",
        required: ["id", "title", "user_id"],
        properties: { id: int, title: text, user_id: int },
      },
    },
  },
};

/** Accounts (someone else's first), tokens, tasks; a status update only on the caller's own task. */
function standIn() {
  const users: { id: number; username: string; password: string }[] = [
    { id: 1, username: "someone", password: crypto.randomUUID() },
  ];
  const tokens = new Map<string, number>();
  const tasks = new Map<number, { id: number; title: string; user_id: number }>();
  const counted = { updated: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const url = new URL(req.url);
    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /register") {
      const { username, password } = await req.json();
      const user = { id: users.length + 1, username, password };
      users.push(user);
      return Response.json({ id: user.id, username });
    }
    if (route === "POST /login") {
      const form = new URLSearchParams(await req.text());
      const user = users.find((u) => u.username === form.get("username"));
      if (!user || user.password !== form.get("password")) {
        return Response.json({ detail: "Invalid credentials" }, { status: 401 });
      }
      const access_token = crypto.randomUUID();
      tokens.set(access_token, user.id);
      return Response.json({ access_token, token_type: "bearer" });
    }
    const caller = tokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    if (caller === undefined) {
      return Response.json({ detail: "Not authenticated" }, { status: 401 });
    }
    if (route === "GET /admin/users") {
      return Response.json(users.map(({ id, username }) => ({ id, username })));
    }
    if (route === "POST /admin/tasks") {
      const { title, user_id } = await req.json();
      const task = { id: tasks.size + 1, title, user_id };
      tasks.set(task.id, task);
      return Response.json(task);
    }
    const status = /^PUT \/tasks\/(\d+)\/status$/.exec(route);
    if (status) {
      const task = tasks.get(Number(status[1]));
      if (!task || task.user_id !== caller) {
        counted.refused++;
        return Response.json({ detail: "Task not found or not assigned to you" }, { status: 404 });
      }
      counted.updated++;
      return Response.json(task);
    }
    return new Response(null, { status: 404 });
  });
  return { server, counted };
}

Deno.test("convert openapi: a body's user listed as what the sign-up answers is the run's own account", async () => {
  const { server, counted } = standIn();
  const { runs, summary } = await convertAndRunSuite(document, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.deepEqual(counted, { updated: 2, refused: 0 });
  assert.match(summary, /user_id of POST \/admin\/tasks ← POST \/register/, summary);
});
