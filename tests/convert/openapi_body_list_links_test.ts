/**
 * `convert openapi`: a request body that is a list of objects, each naming
 * another resource (Unleash's `POST …/strategies/set-sort-order
 * [{id, sortOrder}]`, "The ID of the strategy"), sends in each item the
 * id the resource's create made, as an object body's property naming it
 * does (openapi_body_links_test.ts). The list's items sent the document's
 * example id, which names nothing on a fresh server (400). The stand-in
 * refuses a list naming a task it did not make.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const SAMPLE = "9c40958a-daac-400e-98fb-3bb438567008";

/** A JSON body of `schema`. */
function json(schema: Record<string, unknown>) {
  return { required: true, content: { "application/json": { schema } } };
}

/** Tasks, and two lists of them: by the item's `id` its description names, and by `taskId`. */
function taskDocument() {
  const id = { type: "string", example: SAMPLE };
  const item = (properties: Record<string, unknown>) => ({
    type: "array",
    items: { type: "object", required: Object.keys(properties), properties },
  });
  const answer = (properties: Record<string, unknown>) => ({
    description: "ok",
    content: { "application/json": { schema: { type: "object", properties } } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Tasks", version: "1" },
    paths: {
      "/tasks": {
        post: {
          tags: ["tasks"],
          operationId: "createTask",
          requestBody: json({
            type: "object",
            required: ["title"],
            properties: { title: { type: "string" } },
          }),
          responses: { "201": answer({ id, title: { type: "string" } }) },
        },
      },
      "/tasks/{taskId}": {
        get: {
          tags: ["tasks"],
          operationId: "getTask",
          parameters: [{ name: "taskId", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": answer({ id }) },
        },
      },
      "/tasks/set-sort-order": {
        post: {
          tags: ["tasks"],
          operationId: "setSortOrder",
          requestBody: json(item({
            id: { ...id, description: "The ID of the task" },
            sortOrder: { type: "number", example: 1 },
          })),
          responses: { "200": { description: "sorted" } },
        },
      },
      "/boards": {
        post: {
          tags: ["boards"],
          operationId: "pinTasks",
          requestBody: json(item({ taskId: id, pinned: { type: "boolean" } })),
          responses: { "201": answer({ id }) },
        },
      },
    },
  };
}

Deno.test("convert openapi: a list body's items name the task its create made, by description and by name", async () => {
  const tasks = new Set<string>();
  const got = new Map<string, unknown[]>();
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") {
      const known = tasks.has(path.slice("/tasks/".length));
      return Response.json({ id: path }, { status: known ? 200 : 404 });
    }
    const sent = await req.json();
    got.set(path, [...got.get(path) ?? [], sent]);
    if (path === "/tasks") {
      const id = crypto.randomUUID();
      tasks.add(id);
      return Response.json({ id, title: sent.title }, { status: 201 });
    }
    const named = Array.isArray(sent)
      ? sent.map((s: Record<string, unknown>) => s.id ?? s.taskId)
      : [];
    if (named.length === 0 || !named.every((n) => tasks.has(String(n)))) {
      return Response.json({ error: `no task ${JSON.stringify(named)}` }, { status: 400 });
    }
    return Response.json({ id: crypto.randomUUID() }, { status: path === "/boards" ? 201 : 200 });
  });
  const { summary, runs, flows } = await convertAndRunSuite(taskDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(
    summary.includes("[].id of POST /tasks/set-sort-order ← POST /tasks $.json.id"),
    summary,
  );
  assert.ok(summary.includes("[].taskId of POST /boards ← POST /tasks $.json.id"), summary);
  const sorted = got.get("/tasks/set-sort-order")![0] as Record<string, unknown>[];
  assert.ok(tasks.has(String(sorted[0].id)), JSON.stringify(sorted));
  assert.equal(sorted[0].sortOrder, 1);
  const pinned = got.get("/boards")![0] as Record<string, unknown>[];
  assert.ok(tasks.has(String(pinned[0].taskId)), JSON.stringify(pinned));
  // The boards' flow makes its own task first: a copy of the tasks flow's create.
  const boards = flows.get("boards.yaml")!;
  assert.ok(boards.indexOf("/tasks\n") < boards.indexOf("/boards\n"), boards);
  assert.doesNotMatch(flows.get("tasks.yaml")!, new RegExp(SAMPLE));
});
