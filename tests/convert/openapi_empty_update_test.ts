/**
 * `convert openapi` on an update whose body wraps the item in a member the
 * schema requires (`{"note": {...}}`, RealWorld's `PUT /user` and
 * `PUT /articles/{slug}`) while the item's own schema requires nothing: the
 * body was `{"note": {}}`, an update of nothing, which a real RealWorld
 * backend answers with 500 (its ORM refuses a save of no column). The
 * member required by the document now holds the schema's first text
 * property, in a PUT as in a PATCH; a replace whose whole body requires
 * nothing still sends `{}` (openapi_empty_patch_test.ts). The stand-in
 * runs on 127.0.0.1, answers an empty update as that backend does, and is
 * run twice (what a second run sends is its own).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** `{[member]: schema}` with the member required. */
const wrapped = (member: string, schema: unknown) => ({
  type: "object",
  required: [member],
  properties: { [member]: schema },
});

const NOTE = {
  type: "object",
  required: ["id", "title"],
  properties: { id: { type: "integer" }, title: { type: "string" }, text: { type: "string" } },
};
const NEW_NOTE = {
  type: "object",
  required: ["title"],
  properties: { title: { type: "string" }, text: { type: "string" } },
};
const UPDATE_NOTE = {
  type: "object",
  properties: { title: { type: "string" }, text: { type: "string" } },
};
const ANSWER = { description: "The note", ...json(wrapped("note", NOTE)) };

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "notes", version: "1" },
  paths: {
    "/notes": {
      post: {
        requestBody: { required: true, ...json(wrapped("note", NEW_NOTE)) },
        responses: { 201: ANSWER },
      },
    },
    "/notes/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      put: {
        requestBody: { required: true, ...json(wrapped("note", UPDATE_NOTE)) },
        responses: { 200: ANSWER },
      },
      patch: {
        requestBody: { required: true, ...json(wrapped("note", UPDATE_NOTE)) },
        responses: { 200: ANSWER },
      },
    },
  },
};

Deno.test("convert openapi: an update's required member whose schema requires nothing sends a text property, not {}", async () => {
  const notes = new Map<number, Record<string, unknown>>();
  const updates: string[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    const note = body?.note;
    if (typeof note !== "object" || note === null) return new Response(null, { status: 400 });
    if (req.method === "POST") {
      const id = notes.size + 1;
      notes.set(id, { id, ...note });
      return Response.json({ note: notes.get(id) }, { status: 201 });
    }
    const id = Number(new URL(req.url).pathname.split("/")[2]);
    if (!notes.has(id)) return new Response(null, { status: 404 });
    updates.push(`${req.method} ${JSON.stringify(Object.keys(note))}`);
    // What the RealWorld backend's ORM does with a save of no column.
    if (Object.keys(note).length === 0) return new Response("No Rows Updated", { status: 500 });
    notes.set(id, { ...notes.get(id), ...note });
    return Response.json({ note: notes.get(id) });
  });
  const { runs, flows } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(updates.sort(), [
    'PATCH ["title"]',
    'PATCH ["title"]',
    'PUT ["title"]',
    'PUT ["title"]',
  ]);
  // A title is made per run, as a create's is: no literal `string` sent.
  const text = [...flows.values()].join("\n");
  assert.doesNotMatch(text, /title: string$/m);
});
