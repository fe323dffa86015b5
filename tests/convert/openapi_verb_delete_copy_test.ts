/**
 * `convert openapi` on a document that removes an item twice: under a
 * delete verb (`GET /note/destroy/{id}`, as Sails' shortcut blueprints
 * route it) and by the item's own `DELETE /note/{id}` (a Sails 1 chat
 * service's committed document, 2022: both for its messages and its rooms).
 * The verb already ran the GET last among the item's reads; but the DELETE
 * after it was sent the id the GET had removed, and the server answered
 * 404. A GET under a delete verb ends the item as a DELETE does: the second
 * of them gets an item of its own, a copy of the create just before it.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for a note it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const NOTE = {
  type: "object",
  properties: { id: { type: "string" }, text: { type: "string" } },
  required: ["text"],
};
const ok = (schema: unknown = NOTE) => ({ "200": { description: "Done", ...json(schema) } });
const ID = [{ in: "path", name: "id", required: true, schema: { type: "string" } }];

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "notes", version: "1" },
  paths: {
    "/note": { post: { tags: ["note"], requestBody: json(NOTE), responses: ok() } },
    "/note/{id}": {
      get: { tags: ["note"], parameters: ID, responses: ok() },
      delete: { tags: ["note"], parameters: ID, responses: ok() },
    },
    "/note/destroy/{id}": { get: { tags: ["note"], parameters: ID, responses: ok() } },
  },
};

/** Notes in memory: a read or a removal of one it does not hold is 404. */
function standIn(seen: string[]) {
  const notes = new Map<string, unknown>();
  let next = 1;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST") {
      const made = { ...await req.json(), id: `n${next++}` };
      notes.set(made.id, made);
      return Response.json(made);
    }
    const [, destroy, id] = /^\/note\/(destroy\/)?([^/]+)$/.exec(pathname) ?? [];
    const held = notes.get(id);
    if (held === undefined) return new Response("Not Found", { status: 404 });
    if (destroy || req.method === "DELETE") notes.delete(id);
    return Response.json(held);
  });
}

Deno.test("convert openapi: a GET under a delete verb ends its item, a later DELETE gets its own", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, standIn(seen));
  assert.match(
    summary,
    /a second POST \/note for DELETE \/note\/\{id\}, which ends what GET \/note\/destroy\/\{id\} ended too/,
  );
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.equal(seen.filter((s) => s === "POST /note").length, 2, seen.join(", "));
});
