/**
 * `convert openapi` on items made under their parent and addressed on their
 * own (shallow routes) whose create's answer the document leaves
 * undescribed: a project management API on Elysia measured by hand makes a
 * work item at `POST /projects/{projectId}/items` and reads, replaces,
 * moves and deletes it at `/items/{id}`, every answer documented `200: {}`.
 * The item's noun named its create, but with no property to read the id
 * from, the create was passed over: `PUT /items/{id}` was taken for a
 * create at a URL the client names, the run sent a made-up `id-…` (404
 * each time) and `PATCH /items/{id}/priority`, in another flow, asked for a
 * placeholder. The id is now searched for in the create's answer at run
 * time, as it is for a create on the item's own collection.
 *
 * The stand-in runs on 127.0.0.1: projects, their items at their own path,
 * each id made by the server.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const param = (name: string) => [{ name, in: "path", required: true, schema: { type: "string" } }];
const body = (props: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: {
    "application/json": { schema: { type: "object", required, properties: props } },
  },
});
const undescribed = { "200": {} };
const title = { title: { type: "string", minLength: 1 } };

const document = {
  openapi: "3.0.3",
  info: { title: "Projects", version: "1" },
  paths: {
    "/projects": {
      post: {
        tags: ["Projects"],
        requestBody: body({ name: { type: "string" } }, ["name"]),
        responses: {
          "200": {
            description: "Made",
            content: {
              "application/json": {
                schema: { type: "object", properties: { id: { type: "string" } } },
              },
            },
          },
        },
      },
    },
    "/projects/{projectId}/items": {
      post: {
        tags: ["Items"],
        parameters: param("projectId"),
        requestBody: body(title, ["title"]),
        responses: undescribed,
      },
    },
    "/items/{id}": {
      get: { tags: ["Items"], parameters: param("id"), responses: undescribed },
      put: {
        tags: ["Items"],
        parameters: param("id"),
        requestBody: body(title, []),
        responses: undescribed,
      },
      delete: { tags: ["Items"], parameters: param("id"), responses: undescribed },
    },
    "/items/{id}/status": {
      patch: {
        tags: ["Items"],
        parameters: param("id"),
        requestBody: body({ status: { type: "string", enum: ["todo", "done"] } }, ["status"]),
        responses: undescribed,
      },
    },
  },
};

/** Projects and their items, each id the server's own. */
function tracker() {
  const projects = new Set<string>();
  const items = new Map<string, string>();
  const missing = () => Response.json({ error: "Not found" }, { status: 404 });
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (req.method === "POST" && path.length === 1) {
      const id = crypto.randomUUID();
      projects.add(id);
      return Response.json({ id });
    }
    if (req.method === "POST") {
      if (!projects.has(path[1])) return missing();
      const id = crypto.randomUUID();
      items.set(id, path[1]);
      return Response.json({ success: true, data: { item: { id, projectId: path[1] } } });
    }
    if (!items.has(path[1])) return missing();
    if (req.method === "DELETE") items.delete(path[1]);
    return Response.json({ success: true, data: { item: { id: path[1] } } });
  });
}

Deno.test("an item made under its parent, its answer undescribed, is read by the id that answer holds", async () => {
  const { runs, summary } = await convertAndRunSuite(document, tracker(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  for (const op of ["GET /items/{id}", "PUT /items/{id}", "PATCH /items/{id}/status"]) {
    const said = `{id} of ${op} ← POST /projects/{projectId}/items`;
    assert.ok(summary.includes(said), `${said}\n${summary}`);
  }
  assert.doesNotMatch(summary, /the client names|Fill in/);
});
