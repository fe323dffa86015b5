/**
 * `convert openapi` on a PATCH whose body requires nothing and whose first
 * text member has a `default` (a Hapi to-do API documented by
 * `hapi-swagger`: `PATCH /todo/{id}` takes `{state?, description?}`,
 * `state` an enum `COMPLETE`/`INCOMPLETE` defaulting to `INCOMPLETE`).
 * The update sent `{state: INCOMPLETE}`, the default, which the item the
 * create made without a state already holds, and the server refused the
 * change of nothing (400 "Redundant update to same state."). The member
 * sent is now given a value other than its default: an enum's first other
 * value, else a text made as if no default were written. A member sent as
 * the document's example or of no default is unchanged. The stand-in runs
 * on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const TODO = {
  type: "object",
  properties: {
    id: { type: "integer" },
    state: { type: "string", default: "INCOMPLETE", enum: ["COMPLETE", "INCOMPLETE"] },
    description: { type: "string", maxLength: 255 },
  },
  required: ["description"],
};

const UPDATE = {
  type: "object",
  properties: {
    state: { type: "string", default: "INCOMPLETE", enum: ["COMPLETE", "INCOMPLETE"] },
    description: { type: "string", default: "", maxLength: 255 },
  },
};

const DOCUMENT = {
  swagger: "2.0",
  info: { title: "todos", version: "1" },
  host: "localhost",
  basePath: "/",
  paths: {
    "/todos": {
      post: {
        parameters: [{ in: "body", name: "body", schema: { $ref: "#/definitions/Todo" } }],
        responses: { 200: { description: "Successful", schema: { $ref: "#/definitions/Todo" } } },
      },
    },
    "/todo/{id}": {
      patch: {
        parameters: [
          { type: "number", minimum: 0, name: "id", in: "path", required: true },
          { in: "body", name: "body", schema: { $ref: "#/definitions/Update" } },
        ],
        responses: { 200: { description: "Successful", schema: { $ref: "#/definitions/Todo" } } },
      },
    },
  },
  definitions: { Todo: TODO, Update: UPDATE },
};

/** A to-do store that refuses an update leaving the item as it was, as the Hapi API does. */
function todoServer(sent: unknown[]) {
  const todos = new Map<number, Record<string, unknown>>();
  return serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    if (req.method === "POST") {
      const todo = { id: todos.size + 1, state: "INCOMPLETE", ...body };
      todos.set(todo.id, todo);
      return Response.json(todo);
    }
    sent.push(body);
    const todo = todos.get(Number(new URL(req.url).pathname.split("/").pop()));
    if (!todo) return Response.json({ message: "To-do not found." }, { status: 404 });
    const changed = Object.entries(body ?? {}).filter(([k, v]) => todo[k] !== v);
    if (changed.length === 0) {
      return Response.json({ message: "Redundant update to same state." }, { status: 400 });
    }
    Object.assign(todo, body);
    return Response.json(todo);
  });
}

Deno.test("convert openapi: a PATCH's one member is sent as a value other than its default", async () => {
  const sent: unknown[] = [];
  const { runs: [run] } = await convertAndRunSuite(DOCUMENT, todoServer(sent));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(sent, [{ state: "COMPLETE" }]);
});

Deno.test("convert openapi: a PATCH's member of a free text with a default is sent as another text", async () => {
  const doc = structuredClone(DOCUMENT);
  const { state: _, ...rest } = doc.definitions.Update.properties;
  doc.definitions.Update.properties = rest as typeof UPDATE.properties;
  const sent: unknown[] = [];
  const { runs: [run] } = await convertAndRunSuite(doc, todoServer(sent));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [body] = sent as { description: string }[];
  assert.deepEqual(Object.keys(body), ["description"]);
  assert.notEqual(body.description, "");
});

Deno.test("convert openapi: a PATCH's member sent as the document's example keeps it", async () => {
  const doc = structuredClone(DOCUMENT);
  (doc.definitions.Update.properties.state as Record<string, unknown>).example = "COMPLETE";
  const sent: unknown[] = [];
  const { runs: [run] } = await convertAndRunSuite(doc, todoServer(sent));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(sent, [{ state: "COMPLETE" }]);
});
