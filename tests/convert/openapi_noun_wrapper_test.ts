/**
 * `convert openapi` on a create that answers its item under its noun beside a status flag,
 * `{ok: true, task: {id, …}}`, as a kanban API on Express (2025) describes `POST /api/tasks`.
 * Before, a member one level down was read only inside an envelope (`data`, `result`, `item`)
 * or an answer of one member: `task.id` of an answer of two was taken for another thing's (as
 * Discord's `message_reference.message_id` is), so `{taskId}` of `/api/tasks/{taskId}` was asked
 * for as a placeholder ("the taskId of one that exists") and every read, rename and delete of the
 * task answered 404. A wrapper named for the noun of the collection the create posts to is the
 * item itself: `{taskId}` ← `POST /api/tasks` `$.json.task.id`. A wrapper of another name
 * (`{ok, reference: {id}}`) is still no item of the create's.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for a task it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { propertyPaths } from "../../lib/convert/openapi/response_paths.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const uuid = { type: "string", format: "uuid" };
const answer = (wrapper: string) => ({
  type: "object",
  properties: {
    ok: { type: "boolean" },
    [wrapper]: { type: "object", properties: { id: uuid, name: { type: "string" } } },
  },
});
const taskId = [{ in: "path", name: "taskId", required: true, schema: uuid }];

const document = {
  openapi: "3.0.0",
  info: { title: "Kanban tasks", version: "1.0.0" },
  paths: {
    "/api/tasks": {
      post: {
        requestBody: json({
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        }),
        responses: { "200": { description: "Made", ...json(answer("task")) } },
      },
    },
    "/api/tasks/{taskId}": {
      get: { parameters: taskId, responses: { "200": { description: "The task" } } },
      delete: { parameters: taskId, responses: { "200": { description: "Gone" } } },
    },
  },
};

/** Tasks in memory: a read or delete of one it does not hold is 404. */
function standIn(seen: string[]) {
  const tasks = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(
      `${req.method} ${req.method === "POST" ? pathname : pathname.replace(/[^/]+$/, "*")}`,
    );
    if (req.method === "POST") {
      const id = crypto.randomUUID();
      tasks.add(id);
      return Response.json({ ok: true, task: { id, name: (await req.json()).name } });
    }
    const id = pathname.split("/").at(-1)!;
    if (!tasks.has(id)) return Response.json({ ok: false }, { status: 404 });
    if (req.method === "DELETE") tasks.delete(id);
    return Response.json({ ok: true, task: { id } });
  });
}

Deno.test("convert openapi: a create's item under its noun beside a flag is read for its path", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen));
  assert.match(
    summary,
    /\{taskId\} of GET \/api\/tasks\/\{taskId\} ← POST \/api\/tasks \$\.json\.task\.id/,
  );
  assert.doesNotMatch(summary, /Fill in/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.deepEqual(seen, ["POST /api/tasks", "GET /api/tasks/*", "DELETE /api/tasks/*"]);
});

Deno.test("convert openapi: a wrapper of another name beside a flag is no item of the create's", () => {
  const doc = {
    paths: { "/api/tasks": { post: { responses: { "200": json(answer("reference")) } } } },
  };
  const [create] = operationsOf(doc);
  assert.equal(propertyPaths(doc, create).get("id"), undefined);
});
