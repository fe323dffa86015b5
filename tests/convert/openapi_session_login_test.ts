/**
 * `convert openapi` on a document that declares no security at all beside a
 * login answering no token: the login signs its client in by the session
 * cookie its answer sets, and every other operation needs that cookie. Found
 * on the official Fastify demo (`@fastify/swagger` from its route schemas,
 * `@fastify/session`; measured by hand, see docs/real-servers.md): its
 * `POST /api/auth/login {email, password}` answers `{success: true}` and a
 * `Set-Cookie`, its tasks answer 401 without it, and the suite sent the
 * login a made-up account and nothing after it carried a session: 0 of 12.
 * Such a login is now the suite's way in: each flow keeps a cookie jar and
 * signs in first, as the user's account (`LOGIN_EMAIL`, `LOGIN_PASSWORD`,
 * which the summary asks for) when nothing registers one, else as the
 * account a sign-up taking the login's fields makes for the run. A login
 * answering a token, or a document declaring a scheme, is read as before.
 *
 * The stand-in runs on 127.0.0.1, knows one account (or the ones signed up)
 * and refuses every other call without the session the login set.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const CREDENTIALS = {
  type: "object",
  required: ["email", "password"],
  properties: {
    email: { type: "string", format: "email" },
    password: { type: "string", minLength: 1 },
  },
};
const TASK = {
  type: "object",
  properties: { id: { type: "integer" }, name: { type: "string" } },
};

/** The demo's shape: a login, tasks (create, list, read, delete), no security declared. */
function document(signUp: boolean) {
  const paths: Record<string, unknown> = {
    "/api/auth/login": {
      post: {
        tags: ["Authentication"],
        requestBody: { required: true, ...json(CREDENTIALS) },
        responses: {
          "200": {
            description: "Default Response",
            ...json({ type: "object", properties: { success: { type: "boolean" } } }),
          },
          "401": {
            description: "Default Response",
            ...json({ type: "object", properties: { message: { type: "string" } } }),
          },
        },
      },
    },
    "/api/tasks/": {
      get: {
        tags: ["Tasks"],
        responses: {
          "200": {
            description: "Default Response",
            ...json({ type: "object", properties: { tasks: { type: "array", items: TASK } } }),
          },
        },
      },
      post: {
        tags: ["Tasks"],
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
        },
        responses: {
          "201": {
            description: "Default Response",
            ...json({ type: "object", properties: { id: { type: "integer" } } }),
          },
        },
      },
    },
    "/api/tasks/{id}": {
      get: {
        tags: ["Tasks"],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "Default Response", ...json(TASK) } },
      },
      delete: {
        tags: ["Tasks"],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "204": { description: "Default Response" } },
      },
    },
  };
  if (signUp) {
    paths["/api/auth/register"] = {
      post: {
        tags: ["Authentication"],
        requestBody: { required: true, ...json(CREDENTIALS) },
        responses: {
          "201": {
            description: "Default Response",
            ...json({ type: "object", properties: { id: { type: "integer" } } }),
          },
        },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "Demo", version: "0" },
    components: { schemas: {} },
    paths,
  };
}

const ACCOUNT = { email: "owner@example.org", password: "s3cret-Owner-pass" };

/** Keeps tasks per session; a session is made only by a login of a known account. */
function standIn() {
  const accounts = new Map([[ACCOUNT.email, ACCOUNT.password]]);
  const sessions = new Set<string>();
  const tasks = new Map<number, string>();
  const counts = { logins: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (req.method === "POST" && pathname === "/api/auth/register") {
      accounts.set(body.email, body.password);
      return Response.json({ id: accounts.size }, { status: 201 });
    }
    if (req.method === "POST" && pathname === "/api/auth/login") {
      if (accounts.get(body.email) !== body.password || !body.password) {
        return Response.json({ message: "Invalid email or password." }, { status: 401 });
      }
      counts.logins++;
      const sid = crypto.randomUUID();
      sessions.add(sid);
      const headers = { "set-cookie": `session_id=${sid}; Path=/; HttpOnly` };
      return Response.json({ success: true }, { headers });
    }
    const sid = /session_id=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (!sid || !sessions.has(sid)) {
      counts.refused++;
      return Response.json({ message: "You must be authenticated" }, { status: 401 });
    }
    const id = Number(pathname.split("/")[3]);
    if (pathname === "/api/tasks/" && req.method === "POST") {
      tasks.set(tasks.size + 1, body.name);
      return Response.json({ id: tasks.size }, { status: 201 });
    }
    if (pathname === "/api/tasks/" && req.method === "GET") {
      return Response.json({ tasks: [...tasks].map(([id, name]) => ({ id, name })) });
    }
    if (!tasks.has(id)) return Response.json({ message: "Task not found" }, { status: 404 });
    if (req.method === "GET") return Response.json({ id, name: tasks.get(id) });
    tasks.delete(id);
    return new Response(null, { status: 204 });
  });
  return { server, counts };
}

Deno.test("convert openapi: a login answering no token in a document declaring no security signs each flow in by its session cookie, as the user's account", async () => {
  const { server, counts } = standIn();
  const { summary, flows, run, report, steps } = await convertAndRunAsUser(
    document(false),
    server,
    (base) => ({
      BASE_URL: base,
      ...{ LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password },
    }),
  );
  assert.match(summary, /^ {2}LOGIN_EMAIL: .*POST \/api\/auth\/login/m);
  assert.match(summary, /^ {2}LOGIN_PASSWORD: .*POST \/api\/auth\/login/m);
  assert.match(summary, /session cookie/);
  const tasks = flows.get("tasks.yaml")!;
  assert.match(tasks, /cookie_jar: true/);
  assert.ok(!/s3cret|owner@example/.test([...flows.values()].join("\n")));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 6 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(counts.refused, 0);
  assert.ok(counts.logins >= 2, "each flow signs in");
  assert.ok(!report.includes(ACCOUNT.password));
});

Deno.test("convert openapi: a session login beside a sign-up taking its fields signs in as the run's own account", async () => {
  const { server, counts } = standIn();
  const { summary, run, steps } = await convertAndRunAsUser(
    document(true),
    server,
    (base) => ({ BASE_URL: base }),
  );
  assert.ok(!/LOGIN_EMAIL|LOGIN_PASSWORD/.test(summary), summary);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(counts.refused, 0);
});
