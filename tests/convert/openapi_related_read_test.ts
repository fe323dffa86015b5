/**
 * `convert openapi` on a document whose create takes an optional property
 * naming another resource (`todoListId` of `POST /todos`), and that reads
 * that relation from the created item (`GET /todos/{id}/todo-list`, LoopBack
 * 4's `belongsTo` controller). The property was left out, as every optional
 * id is until a create makes it (body_links.ts), so the item belonged to no
 * list and the read answered 204 with no body where the document promises a
 * list. A document that reads the relation of the item says the item has one:
 * the create now sends the id the other resource's create answers. Where the
 * document reads no such relation the optional id stays out. The stand-in
 * runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const list = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "number" }, title: { type: "string" } },
};
const todo = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "number" }, title: { type: "string" }, todoListId: { type: "number" } },
};

/** The document; `reads` adds the read of a todo's list. */
function document(reads: boolean, relation = "todo-list") {
  const newTodo = { ...todo, properties: { ...todo.properties, id: undefined } };
  return {
    openapi: "3.0.0",
    info: { title: "related", version: "1" },
    paths: {
      "/todo-lists": {
        post: {
          tags: ["Lists"],
          requestBody: json({ ...list, properties: { title: list.properties.title } }),
          responses: { 200: { description: "A list", ...json(list) } },
        },
      },
      "/todos": {
        post: {
          tags: ["Todos"],
          requestBody: json(newTodo),
          responses: { 200: { description: "A todo", ...json(todo) } },
        },
      },
      "/todos/{id}": {
        get: {
          tags: ["Todos"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
          responses: { 200: { description: "A todo", ...json(todo) } },
        },
      },
      ...(reads
        ? {
          [`/todos/{id}/${relation}`]: {
            get: {
              tags: ["Todos"],
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
              responses: { 200: { description: "Its list", ...json(list) } },
            },
          },
        }
        : {}),
    },
  };
}

/** Lists and todos numbered by the server; a todo's list read answers 204 when it has none. */
function standIn() {
  const lists = new Map<number, unknown>();
  const todos = new Map<number, { todoListId?: number }>();
  let next = 1;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      const made = { ...(await req.json()), id: next++ };
      (path === "/todo-lists" ? lists : todos).set(made.id, made);
      return Response.json(made);
    }
    const [, , id, relation] = path.split("/");
    const item = todos.get(Number(id));
    if (!item) return new Response(null, { status: 404 });
    if (!relation) return Response.json(item);
    const owner = lists.get(item.todoListId ?? -1);
    return owner ? Response.json(owner) : new Response(null, { status: 204 });
  });
}

for (const relation of ["todo-list", "todoList"]) {
  Deno.test(`convert openapi: a create sends an optional id whose relation the document reads (${relation})`, async () => {
    const { runs, summary, flows } = await convertAndRunSuite(document(true, relation), standIn(), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.match(flows.get("todos.yaml") ?? "", /todoListId: /, summary);
  });
}

Deno.test("convert openapi: an optional id whose relation the document never reads stays out", async () => {
  const { flows, summary } = await convertAndRunSuite(document(false), standIn(), { runs: 0 });
  assert.doesNotMatch(flows.get("todos.yaml") ?? "", /todoListId/, summary);
});
