/**
 * `convert openapi`: a POST that adds an item to a collection sends each
 * optional member that the item, as its own answer and its collection's
 * listing show it, must hold. Found on a FastAPI room-booking API measured
 * by hand (docs/real-servers.md): its booking create lists `purpose` without
 * requiring it, while the create's 201 answer and every item of `GET
 * /bookings/` (one schema) require `purpose` as text. The body left it out,
 * the server stored the booking without one and then failed to write its
 * own answer (500), so no id was read and the booking's read, update and
 * delete were skipped.
 *
 * A first rule read the create's answer alone, and Jupyter Server's save
 * (`PUT /api/contents/{path}`, every body member optional) was sent a
 * made-up `format` and `content`, refused: its answer is a view of a file
 * whose members the reader chooses, not a row of a listed collection. So
 * the evidence is narrower: a POST, to a collection whose listing (`GET` of
 * the same path) answers items of the very schema the create answers. A
 * PUT to a path naming one item, and a POST whose path lists nothing, send
 * what they sent before.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };

/** An optional member as pydantic 1 writes it (a plain type), or 2 (`anyOf` it or null, default null). */
const optional = (schema: Record<string, unknown>, two: boolean) =>
  two ? { anyOf: [schema, { type: "null" }], default: null } : schema;

/** The stored note, as its create, read and listing answer it. */
function noteSchema(two: boolean) {
  return {
    type: "object",
    required: ["id", "title", "summary", "pinned", "colour", "folder_id", ...two ? ["note"] : []],
    properties: {
      id: { type: "integer" },
      title: text,
      summary: text,
      pinned: { type: "boolean" },
      colour: { type: "string", enum: ["red", "blue"] },
      folder_id: { type: "integer" },
      note: two ? { anyOf: [text, { type: "null" }] } : { type: "string", nullable: true },
      author: text,
    },
  };
}

/**
 * Notes: a create listing optional members, an answer requiring some of them, and a listing of the
 * same schema, as FastAPI writes them on pydantic 1 (OpenAPI 3.0) or on pydantic 2 (3.1); without
 * `listing`, the collection is never listed.
 */
function document(two = false, listing = true) {
  const ref = { $ref: "#/components/schemas/Note" };
  const created = { description: "Created", ...json(ref) };
  const list = { description: "Notes", ...json({ type: "array", items: ref }) };
  return {
    openapi: two ? "3.1.0" : "3.0.2",
    info: { title: "Notes", version: "1" },
    paths: {
      "/notes/": {
        ...listing ? { get: { operationId: "listNotes", responses: { "200": list } } } : {},
        post: {
          operationId: "createNote",
          requestBody: json({
            type: "object",
            required: ["title"],
            properties: {
              title: text,
              summary: optional(text, two),
              pinned: { type: "boolean", default: false },
              colour: optional({ type: "string", enum: ["red", "blue"] }, two),
              folder_id: optional({ type: "integer" }, two),
              note: optional(text, two),
              author: optional(text, two),
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
    components: { schemas: { Note: noteSchema(two) } },
  };
}

/** Stores what it is sent and fails writing an answer that lacks `summary`, as a typed answer does. */
function startNotes() {
  const notes = new Map<number, Record<string, unknown>>();
  const creates: Record<string, unknown>[] = [];
  let next = 1;
  const complete = (row: Record<string, unknown>) => typeof row.summary === "string";
  const answer = (row: Record<string, unknown>, status = 200) =>
    complete(row)
      ? Response.json(row, { status })
      : new Response("Internal Server Error", { status: 500 });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/notes/") {
      const rows = [...notes.values()];
      return rows.every(complete) ? Response.json(rows) : new Response("Error", { status: 500 });
    }
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

/** Converts `doc`, runs it twice, and checks what each create sent (see the module). */
async function sendsWhatTheItemHolds(doc: unknown) {
  const server = startNotes();
  const { runs } = await convertAndRunSuite(doc, server, { runs: 2 });
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
}

Deno.test("convert openapi: a create sends each optional member its listed item requires", async () => {
  await sendsWhatTheItemHolds(document());
});

Deno.test("convert openapi: an optional member defaulting to null is sent where the listed item requires it", async () => {
  // pydantic 2's `Optional[str] = None`: `anyOf` the text or null, default null, which the
  // answer's plain `str` refuses as pydantic 1's absent member was.
  await sendsWhatTheItemHolds(document(true));
});

Deno.test("convert openapi: a create of a collection never listed sends what it sent before", async () => {
  const server = serveStandIn(async (req) => {
    if (req.method === "POST") {
      return Response.json({ ...await req.json(), id: 1 }, { status: 201 });
    }
    return new Response(null, { status: req.method === "DELETE" ? 204 : 404 });
  });
  const { flows } = await convertAndRunSuite(document(false, false), server);
  const text = [...flows.values()].join("\n");
  assert.match(text, /title:/);
  assert.doesNotMatch(text, /summary:/);
});

/** Files as a notebook server writes them: one schema for every answer, read and written by path. */
function filesDocument() {
  const entry = {
    type: "object",
    required: ["name", "path", "type", "writable", "created", "mimetype", "format", "content"],
    properties: {
      name: text,
      path: text,
      type: { type: "string", enum: ["directory", "file", "notebook"] },
      writable: { type: "boolean" },
      created: { type: "string", format: "date-time" },
      mimetype: text,
      format: text,
      content: text,
    },
  };
  const answer = (description: string) => ({
    description,
    schema: { $ref: "#/definitions/Entry" },
  });
  const body = (properties: Record<string, unknown>) => ({
    name: "model",
    in: "body",
    schema: { type: "object", properties },
  });
  const save = body({ name: text, path: text, type: text, format: text, content: text });
  const get = { parameters: [{ name: "content", in: "query", type: "integer" }] };
  return {
    swagger: "2.0",
    info: { title: "Files", version: "1" },
    basePath: "/api",
    paths: {
      "/files/{path}": {
        parameters: [{ name: "path", in: "path", required: true, type: "string" }],
        get: { ...get, operationId: "getFile", responses: { "200": answer("The file") } },
        post: {
          operationId: "newFile",
          parameters: [body({ copy_from: text, ext: text, type: text })],
          responses: { "201": answer("Made") },
        },
        put: {
          operationId: "saveFile",
          parameters: [save],
          responses: { "200": answer("Saved"), "201": answer("Made") },
        },
        delete: { operationId: "deleteFile", responses: { "204": { description: "Deleted" } } },
      },
    },
    definitions: { Entry: entry },
  };
}

Deno.test("convert openapi: a save to a path naming one item, and a create listed nowhere, send no member only their answer requires", async () => {
  const sent: Record<string, Record<string, unknown>[]> = { POST: [], PUT: [] };
  const server = serveStandIn(async (req) => {
    const body = req.method === "POST" || req.method === "PUT" ? await req.json() : undefined;
    if (body) sent[req.method].push(body);
    // A made-up format is refused, as the notebook server refuses one it does not know.
    if (body && "format" in body) return Response.json({ reason: "bad format" }, { status: 400 });
    return new Response(null, { status: req.method === "DELETE" ? 204 : 404 });
  });
  await convertAndRunSuite(filesDocument(), server);
  assert.ok(sent.PUT.length > 0, JSON.stringify(sent));
  for (const body of [...sent.PUT, ...sent.POST]) {
    for (const only of ["format", "content", "mimetype", "writable", "created"]) {
      assert.ok(!(only in body), JSON.stringify(body));
    }
  }
});
