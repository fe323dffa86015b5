/**
 * `convert openapi`: a create sends each optional member its own answer
 * requires. Found on a FastAPI room-booking API measured by hand
 * (docs/real-servers.md): its booking create lists `purpose` without
 * requiring it, while the create's 201 answer (the booking as stored)
 * requires `purpose` as text, not null. The body left it out, the server
 * stored the booking without one and then failed to write its own answer
 * (500: the answer's model refused a null `purpose`), so no id was read and
 * the booking's read, update and delete were skipped. The document is the
 * evidence: the answer to a create is what it made, and a member the
 * answer must hold that the request lets the client give comes from the
 * client. Left out as before: a member the request gives a `default` of
 * (the server fills it), a closed list of values (`enum`: a value may
 * gate what the item may do), an id of something else (it must exist), a
 * member the answer may leave out or answer null, and a read-only one.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };

/** Notes: a create listing optional members, and an answer requiring some of them. */
function document() {
  const answer = {
    type: "object",
    required: ["id", "title", "summary", "pinned", "colour", "folder_id"],
    properties: {
      id: { type: "integer" },
      title: text,
      summary: text,
      pinned: { type: "boolean" },
      colour: { type: "string", enum: ["red", "blue"] },
      folder_id: { type: "integer" },
      note: { type: "string", nullable: true },
      author: text,
    },
  };
  const created = { description: "Created", ...json(answer) };
  return {
    openapi: "3.0.2",
    info: { title: "Notes", version: "1" },
    paths: {
      "/notes/": {
        post: {
          operationId: "createNote",
          requestBody: json({
            type: "object",
            required: ["title"],
            properties: {
              title: text,
              summary: text,
              pinned: { type: "boolean", default: false },
              colour: { type: "string", enum: ["red", "blue"] },
              folder_id: { type: "integer" },
              note: text,
              author: text,
            },
          }),
          responses: { "201": created },
        },
      },
      "/notes/{id}": {
        get: { operationId: "getNote", parameters: [id], responses: { "200": created } },
        delete: {
          operationId: "deleteNote",
          parameters: [id],
          responses: { "204": { description: "Deleted" } },
        },
      },
    },
  };
}

/** Stores what it is sent and fails writing an answer that lacks `summary`, as a typed answer does. */
function startServer() {
  const notes = new Map<number, Record<string, unknown>>();
  const creates: Record<string, unknown>[] = [];
  let next = 1;
  const answer = (row: Record<string, unknown>, status = 200) =>
    typeof row.summary === "string"
      ? Response.json(row, { status })
      : new Response("Internal Server Error", { status: 500 });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/notes/") {
      const body = await req.json();
      creates.push(body);
      if (typeof body.folder_id === "number") {
        return Response.json({ detail: "Folder not found" }, { status: 404 });
      }
      const row = { pinned: false, colour: "red", folder_id: 0, note: null, ...body, id: next };
      notes.set(next++, row);
      return answer(row, 201);
    }
    const note = Number(/^\/notes\/(\d+)$/.exec(path)?.[1]);
    if (req.method === "GET" && notes.has(note)) return answer(notes.get(note)!);
    if (req.method === "DELETE" && notes.delete(note)) return new Response(null, { status: 204 });
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
  return { ...stand, creates };
}

Deno.test("convert openapi: a create sends each optional member its own answer requires", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(document(), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(server.creates.length, 2, JSON.stringify(server.creates));
  for (const body of server.creates) {
    assert.equal(typeof body.summary, "string", JSON.stringify(body));
    // The server's default, a closed list, an id of something else, a member that may be null or
    // absent from the answer: left out as before.
    for (const left of ["pinned", "colour", "folder_id", "note", "author"]) {
      assert.ok(!(left in body), JSON.stringify(body));
    }
  }
});
