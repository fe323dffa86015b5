/**
 * `convert openapi`: an update or delete of an item whose only read is its
 * collection's listing takes the run's own account's id when the listed
 * items have the shape the sign-up or login answers the account with, and
 * the delete runs last. Before, `DELETE /users/{id}` and `PATCH
 * /users/{id}/role` took `{id}` from `GET /users`'s first item: a NestJS
 * auth API's run deleted its administrator, and on a shared instance the
 * flow deletes someone else's account. The stand-in on 127.0.0.1 holds an
 * account made before the run (the first listed), lets any token write any
 * account (as a permissive server would) and records what was written.
 * Each case is a listing shape: a top-level array of the `$ref`'d schema
 * the login answers, and the same shape written inline under a wrapper.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, param, signUpPaths, text } from "../support/openapi_doc_parts.ts";

const credentials = { email: { type: "string", format: "email" }, password: text };
const shape = { type: "object", properties: { id: { type: "integer" }, email: text, role: text } };
const ref = { $ref: "#/components/schemas/User" };

/** The document: its listing answers `items` at the top (`[]`) or under `data`. */
function document(wrapped: boolean) {
  const user = wrapped ? shape : ref;
  const list = { type: "array", items: user };
  const token = { type: "object", properties: { access_token: text, user: ref } };
  return {
    openapi: "3.0.0",
    info: { title: "accounts", version: "1" },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { User: shape },
    },
    paths: {
      ...signUpPaths(credentials, token),
      "/users": {
        get: {
          responses: answers(wrapped ? { type: "object", properties: { data: list } } : list),
        },
      },
      "/users/{id}": {
        delete: { parameters: param("id"), responses: { "200": { description: "Deleted" } } },
      },
      "/users/{id}/role": {
        patch: {
          parameters: param("id"),
          requestBody: body({ role: text }),
          responses: answers(ref),
        },
      },
    },
  };
}

/** Accounts (the first made before the run), their tokens, and the ids each write was sent. */
function standIn(wrapped: boolean) {
  const accounts = new Map<number, { id: number; email: string; password: string; role: string }>();
  accounts.set(1, { id: 1, email: "admin@example.com", password: "x", role: "admin" });
  const tokens = new Map<string, number>();
  const written: string[] = [];
  const shown = (id: number) => {
    const { password: _, ...rest } = accounts.get(id)!;
    return rest;
  };
  const signIn = (id: number) => {
    const issued = crypto.randomUUID();
    tokens.set(issued, id);
    return { access_token: issued, user: shown(id) };
  };
  const server = serveStandIn(async (req) => {
    const at = new URL(req.url).pathname;
    if (at === "/auth/register" || at === "/auth/login") {
      const { email, password } = await req.json();
      const found = [...accounts.values()].find((a) => a.email === email);
      if (at === "/auth/login") {
        if (!found || found.password !== password) return new Response(null, { status: 401 });
        return Response.json(signIn(found.id));
      }
      if (found) return new Response(null, { status: 409 });
      const id = Math.max(0, ...accounts.keys()) + 1;
      accounts.set(id, { id, email, password, role: "user" });
      return Response.json(signIn(id), { status: 201 });
    }
    const me = tokens.get(/^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "");
    if (me === undefined || !accounts.has(me)) return new Response(null, { status: 401 });
    if (at === "/users") {
      const list = [...accounts.keys()].map(shown);
      return Response.json(wrapped ? { data: list } : list);
    }
    const id = Number(/^\/users\/(\d+)/.exec(at)?.[1]);
    if (!accounts.has(id)) return new Response(null, { status: 404 });
    written.push(`${req.method} ${id === me ? "own" : id}`);
    if (req.method === "DELETE") return accounts.delete(id), Response.json({});
    accounts.get(id)!.role = (await req.json()).role;
    return Response.json(shown(id));
  });
  return { server, written, accounts };
}

for (const wrapped of [false, true]) {
  Deno.test(`convert openapi: a listing's items of the account's shape (${wrapped ? "inline, under data" : "the $ref, top level"}) give the run's own id to their update and delete, which runs last`, async () => {
    const { server, written, accounts } = standIn(wrapped);
    const { runs, summary } = await convertAndRunSuite(document(wrapped), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.doesNotMatch(summary, /first of its listing/, summary);
    // Each run changed and removed only the account it made, the role first.
    assert.deepEqual(written, ["PATCH own", "DELETE own", "PATCH own", "DELETE own"]);
    assert.equal(accounts.get(1)?.role, "admin");
  });
}
