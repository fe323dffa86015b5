/**
 * `convert openapi`: a `required` list written on an array whose items are
 * objects, naming their members, is read as the items' own. JSON Schema
 * gives `required` no meaning on an array, but a hand-written document
 * puts it there (a Trello-like API's board: `columns: {type: array,
 * items: {properties: {title, order}}, required: [title, order]}`,
 * measured by hand, docs/real-servers.md): its board was sent `columns:
 * [{}]` and refused 400 (`columns.0.title should not be empty`), and the
 * board's read, update and delete and every task under it were skipped.
 * A list whose names are not all its items' members says nothing of them.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });

/** Boards whose columns' `required` sits on the array; tags whose list names no member. */
function document(): Record<string, unknown> {
  const column = {
    type: "object",
    properties: { title: { type: "string" }, order: { type: "integer" } },
  };
  const board = {
    type: "object",
    required: ["title", "columns"],
    properties: {
      title: { type: "string" },
      columns: {
        type: "array",
        items: { $ref: "#/components/schemas/Column" },
        required: ["title", "order"],
      },
      tags: { type: "array", items: column, required: ["colour"] },
    },
  };
  return {
    openapi: "3.0.1",
    info: { title: "Boards", version: "1" },
    components: { schemas: { Column: column } },
    paths: {
      "/boards": {
        post: {
          operationId: "createBoard",
          requestBody: { required: true, content: json(board) },
          responses: {
            "201": {
              description: "Made",
              content: json({ type: "object", properties: { id: { type: "string" } } }),
            },
          },
        },
      },
      "/boards/{boardId}": {
        parameters: [{ name: "boardId", in: "path", required: true, schema: { type: "string" } }],
        get: { operationId: "readBoard", responses: { "200": { description: "OK" } } },
      },
    },
  };
}

Deno.test("convert openapi: a required list on an array of objects is its items' own", async () => {
  const bodies: Record<string, unknown>[] = [];
  const boards = new Set<string>();
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/boards") {
      const got = await req.json();
      bodies.push(got);
      const ok = Array.isArray(got.columns) &&
        got.columns.every((c: Record<string, unknown>) =>
          typeof c.title === "string" && c.title !== "" && typeof c.order === "number"
        );
      if (!ok) {
        return Response.json({ message: ["columns.0.title should not be empty"] }, { status: 400 });
      }
      const id = crypto.randomUUID();
      boards.add(id);
      return Response.json({ id }, { status: 201 });
    }
    const id = /^\/boards\/([^/]+)$/.exec(path)?.[1];
    if (req.method === "GET" && id && boards.has(id)) return Response.json({ id });
    return Response.json({ message: "Not found" }, { status: 404 });
  });
  const { runs: [run] } = await convertAndRunSuite(document(), server);
  const [board] = bodies;
  const [column] = (board?.columns ?? []) as Record<string, unknown>[];
  assert.equal(typeof column?.title, "string", JSON.stringify(board));
  assert.equal(typeof column?.order, "number", JSON.stringify(board));
  // A list naming no member of the items (`colour`) is no requirement of theirs: nothing made up.
  assert.ok(!("tags" in board!), JSON.stringify(board));
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
