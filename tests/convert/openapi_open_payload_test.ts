/**
 * `convert openapi` on a create whose answer's payload is an object said to
 * hold any members (`additionalProperties: true`). An Express API documented
 * by swagger-jsdoc (a school planner on PostgreSQL, measured by hand)
 * answers `POST /seminars` with `{message, data: {type: object,
 * additionalProperties: true}}` and deletes by `DELETE /seminars/{id}`. The
 * payload names no member, as `data: {type: object}` names none, yet it was
 * read as described: no link, and the delete was sent a placeholder `1`,
 * an item of the run's own only on a fresh database. Such an answer is now
 * searched at run time for the item's id, as an envelope's open payload is.
 *
 * The stand-in runs on 127.0.0.1: seminars numbered from 41.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const open = {
  type: "object",
  properties: { message: { type: "string" }, data: { type: "object", additionalProperties: true } },
};

const document = {
  openapi: "3.0.0",
  info: { title: "Planner", version: "1" },
  paths: {
    "/seminars": {
      post: {
        tags: ["Seminars"],
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["day"], properties: { day: { type: "string" } } }),
        },
        responses: { "201": { description: "Seminar created", ...json(open) } },
      },
    },
    "/seminars/{id}": {
      delete: {
        tags: ["Seminars"],
        parameters: id,
        responses: { "200": { description: "Deleted", ...json(open) } },
      },
    },
  },
};

/** Seminars numbered from 41. */
function seminars() {
  const made = new Set<number>();
  let next = 40;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (req.method === "POST") {
      const { day } = await req.json();
      made.add(++next);
      return Response.json({ message: "ok", data: { id: next, day } }, { status: 201 });
    }
    if (!made.delete(Number(path[1]))) return Response.json({ message: "none" }, { status: 404 });
    return Response.json({ message: "deleted", data: { id: Number(path[1]) } });
  });
}

Deno.test("an answer's payload open to any member is searched for the created item's id", async () => {
  const { runs, summary } = await convertAndRunSuite(document, seminars(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /\{id\} of DELETE \/seminars\/\{id\} ← POST \/seminars/);
  assert.doesNotMatch(summary, /Fill in/);
});
