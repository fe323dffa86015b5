/**
 * `convert openapi` on an item whose only update is a PUT whose body
 * schema requires nothing (a Hono backend's `@hono/zod-openapi` document:
 * `PUT /api/task/{id}` with `{name?, done?}`, no PATCH beside it): the
 * body was `{}`, an update of nothing, which the backend's ORM answers
 * with 500 ("No values to set"). With no PATCH on the path, the PUT is
 * the item's update, not a replace: it now sends the schema's first text
 * property, as a PATCH does. A PUT beside a PATCH still replaces with what
 * its schema requires (openapi_empty_patch_test.ts). The stand-in runs on
 * 127.0.0.1 and the suite is run twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const TASK = {
  type: "object",
  required: ["id", "name", "done"],
  properties: { id: { type: "number" }, name: { type: "string" }, done: { type: "boolean" } },
};
const NEW_TASK = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", minLength: 1, maxLength: 20 }, done: { type: "boolean" } },
};
const CHANGE = { type: "object", properties: NEW_TASK.properties };
const ANSWER = { description: "The task", ...json(TASK) };

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "tasks", version: "1" },
  paths: {
    "/tasks": {
      get: { responses: { 200: { description: "All", ...json({ type: "array", items: TASK }) } } },
      post: { requestBody: json(NEW_TASK), responses: { 200: ANSWER } },
    },
    "/tasks/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { responses: { 200: ANSWER } },
      put: { requestBody: json(CHANGE), responses: { 200: ANSWER } },
    },
  },
};

Deno.test("convert openapi: a PUT that is an item's only update, its schema requiring nothing, sends a text property", async () => {
  const tasks = new Map<number, Record<string, unknown>>();
  const puts: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/tasks") return Response.json([...tasks.values()]);
    if (req.method === "POST") {
      const id = tasks.size + 1;
      tasks.set(id, { id, done: false, ...await req.json() });
      return Response.json(tasks.get(id));
    }
    const id = Number(path.split("/")[2]);
    if (!tasks.has(id)) return new Response(null, { status: 404 });
    if (req.method === "GET") return Response.json(tasks.get(id));
    const change = await req.json();
    puts.push(JSON.stringify(Object.keys(change)));
    // What the backend's ORM does with an update of no column.
    if (Object.keys(change).length === 0) {
      return Response.json({ message: "Error: No values to set" }, { status: 500 });
    }
    tasks.set(id, { ...tasks.get(id), ...change });
    return Response.json(tasks.get(id));
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(puts, ['["name"]', '["name"]']);
});
