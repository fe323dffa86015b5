/**
 * `convert openapi` on an update whose body repeats the id of the item its
 * path addresses (`PUT /todos/{id}` with `{id, name}`), the shape of an
 * ASP.NET Core controller (`if (id != item.Id) return BadRequest()`) and of
 * koa-swagger-decorator's node-typescript-koa-rest, whose update body is its
 * create's schema with `id` required, example `1`. The path's id came from
 * the create's answer while the body sent the example (`1`) or nothing (an
 * optional `id` left out): a server comparing the two refused every update
 * (400). The body's member now sends what the path sends, whether the
 * schema requires it or not, under the path's own name (`{todoId}` with
 * `todoId`) or the member the create answered (`{id}` of the last segment
 * with `id`); a parent's id (`{listId}`) never fills the item's own `id`.
 * The stand-in runs on 127.0.0.1 and is run twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ID = { type: "integer", format: "int64", example: 1 };

/**
 * The document: lists, and todos under a list, each create answering the item (`described`), or
 * answering an object the document does not describe, as koa-swagger-decorator's documents say.
 */
function document(requiredId: boolean, todoParam: string, described = true) {
  const item = (extra: Record<string, unknown>) => ({
    type: "object",
    ...(requiredId ? { required: ["id", "name"] } : {}),
    properties: { id: ID, name: { type: "string", example: "Javier" }, ...extra },
  });
  const list = item({});
  const todo = item({ listId: ID });
  const path = (name: string) => ({ name, in: "path", required: true, schema: ID });
  const made = (schema: unknown) => ({ description: "ok", ...described ? json(schema) : {} });
  return {
    openapi: "3.0.1",
    info: { title: "todos", version: "1" },
    paths: {
      "/lists": {
        post: { requestBody: json(list), responses: { 200: made(list) } },
      },
      "/lists/{listId}": {
        parameters: [path("listId")],
        put: { requestBody: json(list), responses: { 200: { description: "ok" } } },
      },
      "/lists/{listId}/todos": {
        parameters: [path("listId")],
        post: { requestBody: json(todo), responses: { 200: made(todo) } },
      },
      [`/lists/{listId}/todos/{${todoParam}}`]: {
        parameters: [path("listId"), path(todoParam)],
        put: { requestBody: json(todo), responses: { 200: { description: "ok" } } },
        patch: { requestBody: json(todo), responses: { 200: { description: "ok" } } },
      },
    },
  };
}

/** A server that makes ids itself and refuses an update whose body names another item. */
function server(updates: string[]) {
  const items = new Map<string, Record<string, unknown>>();
  let next = 100;
  return serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    if (typeof body !== "object" || body === null) return new Response(null, { status: 400 });
    const parts = new URL(req.url).pathname.split("/").slice(1);
    if (req.method === "POST") {
      const id = next++;
      items.set(String(id), { ...body, id });
      return Response.json(items.get(String(id)));
    }
    const id = parts[parts.length - 1];
    if (!items.has(id)) return new Response(null, { status: 404 });
    updates.push(`${req.method} /${parts[0]}`);
    // ASP.NET Core's scaffolded update: the body's id must be the path's.
    if (String(body.id) !== id) return new Response("id mismatch", { status: 400 });
    return new Response(null, { status: 200 });
  });
}

const CASES: [boolean, string, boolean][] = [
  [true, "id", true],
  [true, "todoId", true],
  [false, "id", true],
  [false, "todoId", true],
  [true, "id", false],
];
for (const [requiredId, todoParam, described] of CASES) {
  {
    const which = `${requiredId ? "required" : "optional"} id, path {${todoParam}}${
      described ? "" : ", the create's answer undescribed"
    }`;
    Deno.test(`convert openapi: an update's body sends the id its path addresses (${which})`, async () => {
      const updates: string[] = [];
      const doc = document(requiredId, todoParam, described);
      const { runs } = await convertAndRunSuite(doc, server(updates), { runs: 2 });
      for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(updates.sort(), [
        "PATCH /lists",
        "PATCH /lists",
        "PUT /lists",
        "PUT /lists",
        "PUT /lists",
        "PUT /lists",
      ]);
    });
  }
}

Deno.test("convert openapi: an update's body keeps a name its create sends, which the update may rename", async () => {
  const tag = {
    type: "object",
    required: ["slug", "label"],
    properties: { slug: { type: "string" }, label: { type: "string" } },
  };
  const slug = { name: "slug", in: "path", required: true, schema: { type: "string" } };
  const doc = {
    openapi: "3.0.1",
    info: { title: "tags", version: "1" },
    paths: {
      "/tags": {
        post: { requestBody: json(tag), responses: { 201: { description: "ok", ...json(tag) } } },
      },
      "/tags/{slug}": {
        parameters: [slug],
        patch: { requestBody: json(tag), responses: { 200: { description: "ok" } } },
      },
    },
  };
  const { flows, summary } = await convertAndRunSuite(doc, serveStandIn(() => new Response()), {
    runs: 0,
  });
  const text = [...flows.values()].join("\n");
  assert.match(text, /url: .*\/tags\/\$\{steps\.\w+\.capture\.slug\}/, summary);
  assert.doesNotMatch(text, /^\s+slug: \$\{steps\./m, text);
});
