/**
 * `convert openapi` on a create whose body schema lists no `required` at all, as
 * swagger-jsdoc YAML is often written: a kanban API on Express (2025) describes its column's
 * create as `{name, BoardId}` and its task's as `{name, ColumnId, BoardId}`, every member
 * optional by the letter, while its validators refuse a column without the id of a board
 * (400 "Invalid value" at `BoardId`). Before, the ids were left out as optional members naming
 * items that must exist, and every column and task operation failed. A schema that requires
 * nothing says nothing of what is needed: its members naming a noun the document creates
 * (`BoardId` ← `POST /api/boards/` `board.id`) are sent the run's own item, as required ones
 * are. A schema with a `required` list keeps leaving its optional relations out.
 *
 * The stand-in runs on 127.0.0.1 and refuses a column whose `BoardId` names no board it holds.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const uuid = { type: "string", format: "uuid" };
const text = { type: "string" };
const ok = (schema: unknown) => ({ "200": { description: "Done", ...json(schema) } });

const document = (required?: string[]) => ({
  openapi: "3.0.0",
  info: { title: "Kanban", version: "1.0.0" },
  paths: {
    "/api/boards/": {
      post: {
        requestBody: json({ type: "object", properties: { name: text }, required: ["name"] }),
        responses: ok({ type: "object", properties: { board: { properties: { id: uuid } } } }),
      },
    },
    "/api/columns/": {
      post: {
        requestBody: json({
          type: "object",
          properties: { name: text, BoardId: uuid },
          ...(required ? { required } : {}),
        }),
        responses: ok({ type: "object", properties: { column: { properties: { id: uuid } } } }),
      },
    },
  },
});

/** Boards and columns in memory; a column's `BoardId` must name a board it holds, else 400. */
function standIn(columns: string[]) {
  const boards = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json();
    const id = crypto.randomUUID();
    if (pathname === "/api/boards/") {
      boards.add(id);
      return Response.json({ ok: true, board: { id, name: body.name } });
    }
    if (!boards.has(body.BoardId)) {
      return Response.json({ ok: false, details: [{ path: "BoardId" }] }, { status: 400 });
    }
    columns.push(body.BoardId);
    return Response.json({ ok: true, column: { id, name: body.name } });
  });
}

Deno.test("convert openapi: a body that requires nothing is sent its relation to the run's item", async () => {
  const columns: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document(), standIn(columns));
  assert.match(
    summary,
    /BoardId of POST \/api\/columns\/ ← POST \/api\/boards\/ \$\.json\.board\.id/,
  );
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.equal(columns.length, 1);
});

Deno.test("convert openapi: a body with a required list leaves its optional relation out", async () => {
  const { summary } = await convertAndRunSuite(document(["name"]), standIn([]));
  assert.doesNotMatch(summary, /BoardId of POST/);
});
