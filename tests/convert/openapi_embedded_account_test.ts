/**
 * `convert openapi` on a document whose body lists ids of a noun nothing
 * makes, while its answers show that noun as a member holding the account.
 * A bug tracker on FastAPI adds a project's members by
 * `PUT /projects/{project_id}/members` `{members: [uuid]}` and answers each
 * membership as `{id, joinedAt, member: {id, username}}`, the account its
 * sign-up answers (`{id, username, token}`) less the token; no operation
 * makes a "member". The type's sample UUID named no account and the server
 * refused it (500, a foreign key). The document's answers are the evidence:
 * the one account the run has is the id to send.
 *
 * The stand-in runs on 127.0.0.1: assignees must be accounts it knows.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const uuid = { type: "string", format: "uuid" };

const CREDENTIALS = {
  type: "object",
  required: ["username", "password"],
  properties: { username: { type: "string" }, password: { type: "string" } },
};
const SIGNED_IN = {
  type: "object",
  required: ["id", "username", "token"],
  properties: { id: uuid, username: { type: "string" }, token: { type: "string" } },
};
const PERSON = {
  type: "object",
  required: ["id", "username"],
  properties: { id: uuid, username: { type: "string" } },
};
const TASK = {
  type: "object",
  required: ["id", "title"],
  properties: { id: uuid, title: { type: "string" } },
};
const ASSIGNMENT = {
  type: "object",
  required: ["id", "since", "assignee"],
  properties: { id: uuid, since: { type: "string", format: "date-time" }, assignee: PERSON },
};
const secured = { security: [{ OAuth2PasswordBearer: [] }] };

/** FastAPI's shape: a JSON sign-up and login, tasks, a task's assignees put by id. */
function document(assignee: unknown = PERSON) {
  const assignment = { ...ASSIGNMENT, properties: { ...ASSIGNMENT.properties, assignee } };
  return {
    openapi: "3.0.2",
    info: { title: "Tasks", version: "1" },
    components: {
      securitySchemes: {
        OAuth2PasswordBearer: {
          type: "oauth2",
          flows: { password: { scopes: {}, tokenUrl: "auth/login" } },
        },
      },
    },
    paths: {
      "/auth/signup": {
        post: {
          tags: ["Auth"],
          requestBody: { required: true, ...json(CREDENTIALS) },
          responses: { "200": { description: "OK", ...json(SIGNED_IN) } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: { required: true, ...json(CREDENTIALS) },
          responses: { "200": { description: "OK", ...json(SIGNED_IN) } },
        },
      },
      "/tasks": {
        post: {
          tags: ["Task"],
          ...secured,
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["title"],
              properties: { title: { type: "string" } },
            }),
          },
          responses: { "200": { description: "OK", ...json(TASK) } },
        },
      },
      "/tasks/{task_id}/assignees": {
        put: {
          tags: ["Task"],
          summary: "Put Assignees",
          ...secured,
          parameters: [{ name: "task_id", in: "path", required: true, schema: uuid }],
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["assignees"],
              properties: { assignees: { type: "array", items: uuid } },
            }),
          },
          responses: {
            "200": { description: "OK", ...json({ type: "array", items: assignment }) },
          },
        },
      },
    },
  };
}

/** Accounts by name and id; tokens; tasks whose assignees must be known accounts. */
function standIn() {
  const accounts = new Map<string, { id: string; password: string }>();
  const tokens = new Map<string, string>();
  const tasks = new Map<string, string>();
  const signedIn = (name: string) => {
    const token = crypto.randomUUID();
    tokens.set(token, name);
    return Response.json({ id: accounts.get(name)?.id, username: name, token });
  };
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (pathname === "/auth/signup") {
      if (accounts.has(body.username)) return Response.json({ detail: "Taken" }, { status: 400 });
      accounts.set(body.username, { id: crypto.randomUUID(), password: body.password });
      return signedIn(body.username);
    }
    if (pathname === "/auth/login") {
      if (accounts.get(body.username)?.password !== body.password) {
        return Response.json({ detail: "Invalid" }, { status: 400 });
      }
      return signedIn(body.username);
    }
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    if (!tokens.has(token)) return Response.json({ detail: "No" }, { status: 401 });
    if (pathname === "/tasks" && req.method === "POST") {
      const id = crypto.randomUUID();
      tasks.set(id, body.title);
      return Response.json({ id, title: body.title });
    }
    const put = /^\/tasks\/([^/]+)\/assignees$/.exec(pathname);
    if (put && req.method === "PUT" && tasks.has(put[1])) {
      const known = [...accounts].filter(([, a]) => body.assignees?.includes(a.id));
      if (known.length !== body.assignees?.length || known.length === 0) {
        return Response.json({ detail: "Unknown account" }, { status: 500 });
      }
      const since = new Date().toISOString();
      return Response.json(
        known.map(([username, a]) => ({
          id: crypto.randomUUID(),
          since,
          assignee: { id: a.id, username },
        })),
      );
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
}

Deno.test("convert openapi: ids of a noun the answers show holding the account are the run's account", async () => {
  const { runs, flows } = await convertAndRunSuite(document(), standIn(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(runs[0].stdout + runs[0].stderr, /4 of 4 operations/);
  assert.doesNotMatch([...flows.values()].join(), /3fa85f64/);
});

Deno.test("convert openapi: a noun shown holding something else than the account keeps its sample", async () => {
  const badge = {
    type: "object",
    required: ["id", "label"],
    properties: { id: uuid, label: { type: "string" } },
  };
  const { flows } = await convertAndRunSuite(document(badge), standIn());
  const task = [...flows.entries()].find(([name]) => name.startsWith("task"))?.[1] ?? "";
  assert.match(task, /assignees: \["3fa85f64/);
});
