/**
 * `convert openapi` on a task API written as `@nestjs/swagger` documents a
 * NestJS project manager: `PATCH /tasks/{status}` sets every task's status,
 * its parameter an `enum` of several words, beside `PUT /tasks/{id}`; the
 * task's create is documented as answering its own request schema (no `id`,
 * which the server adds), and the request names its project by a bare
 * `project` of `type: number`, the type the project's create answers its
 * `id` in. Three rules together:
 * - a path parameter listing its values is no item's key: `{id}` was read
 *   from the created task's `status`, and the update sent it as the task's
 *   `status` too (listed_choice.ts);
 * - an answer documented as the create's body schema says nothing of what
 *   the server adds: `{id}` is searched for in it (undescribed_answer.ts),
 *   not a placeholder to fill in;
 * - a bare noun's `number` is an id where the noun's create answers its id
 *   as a `number` (id_noun.ts, body_links.ts): the task named project `1`,
 *   which a fresh server has not (400).
 * The stand-in runs on 127.0.0.1 and refuses what the real server refused.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({
  description: "Success",
  content: { "application/json": { schema } },
});
const body = (ref: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const id = { name: "id", in: "path", required: true, schema: { type: "number" } };
const STATUSES = ["Open", "In progress", "Done"];
const status = { name: "status", in: "path", required: true, schema: { enum: STATUSES } };

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "Planner", version: "1" },
  paths: {
    "/projects": {
      post: {
        tags: ["Project"],
        requestBody: body("ProjectIn"),
        responses: { 200: json({ $ref: "#/components/schemas/Project" }) },
      },
    },
    "/tasks": {
      post: {
        tags: ["Task"],
        requestBody: body("TaskIn"),
        responses: { 200: json({ $ref: "#/components/schemas/TaskIn" }) },
      },
    },
    "/tasks/{id}": {
      put: {
        tags: ["Task"],
        parameters: [id],
        requestBody: body("TaskIn"),
        responses: { 200: { description: "Success" } },
      },
      delete: { tags: ["Task"], parameters: [id], responses: { 200: { description: "Success" } } },
    },
    "/tasks/{status}": {
      patch: {
        tags: ["Task"],
        parameters: [status],
        responses: { 200: { description: "Success" } },
      },
    },
  },
  components: {
    schemas: {
      ProjectIn: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      Project: {
        type: "object",
        properties: { id: { type: "number" }, name: { type: "string" } },
        required: ["id", "name"],
      },
      TaskIn: {
        type: "object",
        properties: {
          title: { type: "string" },
          status: { type: "string", enum: STATUSES },
          project: { type: "number", description: "The project's" },
        },
        required: ["title", "status", "project"],
      },
    },
  },
};

/** The stand-in: projects and tasks by number; a task needs its project; 404 for no such task. */
function planner(seen: string[]) {
  const projects = new Set<number>();
  const tasks = new Set<number>();
  let next = 1;
  return async (req: Request): Promise<Response> => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${decodeURIComponent(pathname)}`);
    const text = await req.text();
    const sent = text === "" ? {} : JSON.parse(text);
    if (pathname === "/projects") {
      projects.add(next);
      return Response.json({ id: next++, name: sent.name });
    }
    if (pathname === "/tasks") {
      if (!projects.has(sent.project)) {
        return Response.json({ error: "no project" }, { status: 400 });
      }
      tasks.add(next);
      return Response.json({ id: next++, ...sent });
    }
    const [, , key] = pathname.split("/");
    if (req.method === "PATCH") {
      return new Response(null, { status: STATUSES.includes(decodeURIComponent(key)) ? 200 : 400 });
    }
    if (!tasks.has(Number(key))) return Response.json({ error: "no task" }, { status: 404 });
    if (req.method === "DELETE") tasks.delete(Number(key));
    return new Response(null, { status: 200 });
  };
}

Deno.test("convert openapi: a path parameter listing its values is no task's key, and the task's id and project are the run's", async () => {
  const seen: string[] = [];
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, serveStandIn(planner(seen)));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const task = flows.get("task.yaml") ?? "";
  assert.doesNotMatch(task, /fill in/, task);
  assert.doesNotMatch(task, /status: \$\{steps/, task);
  assert.ok(seen.some((s) => /^PUT \/tasks\/\d+$/.test(s)), seen.join("\n"));
  assert.ok(seen.some((s) => /^DELETE \/tasks\/\d+$/.test(s)), seen.join("\n"));
  assert.ok(
    seen.some((s) => s === `PATCH /tasks/${STATUSES[0]}` || /^PATCH \/tasks\/[A-Z]/.test(s)),
  );
});
