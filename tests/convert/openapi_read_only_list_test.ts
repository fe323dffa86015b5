/**
 * `convert openapi`: a list the document marks `readOnly` is no input of the
 * request whose body schema shows it, so its items' ids link that request to
 * nothing. Found on a Django REST framework task tracker (drf-spectacular,
 * measured by hand, docs/real-servers.md): its task's one schema serves the
 * answer and the request, and shows the task's comments as a `readOnly` list
 * (each comment's own `id` and `task`), which drf-spectacular also lists as
 * `required`. The converter read the list's items as comments the task create
 * needs and the comment create's `task` as the task it needs: a cycle, broken
 * by sending the comment the literal `task: 1` before any task was made (400,
 * "object does not exist"), and the comment's read, update and delete never
 * ran. OpenAPI says a `readOnly` property is not sent in a request; its
 * `required` holds for the answer only.
 *
 * The stand-in below answers as that API does, on 127.0.0.1: a note naming a
 * card that does not exist is refused.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const idParam = { name: "id", in: "path", required: true, schema: { type: "integer" } };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const made = (name: string) => ({ "201": { description: "Made", content: json(ref(name)) } });
const read = (name: string) => ({ "200": { description: "OK", content: json(ref(name)) } });

/** Cards whose one schema lists their notes read-only; notes name their card. */
function document(): Record<string, unknown> {
  const resource = (noun: string, schema: string) => ({
    [`/${noun}/`]: {
      post: {
        operationId: `${noun}_create`,
        requestBody: { required: true, content: json(ref(schema)) },
        responses: made(schema),
      },
    },
    [`/${noun}/{id}/`]: {
      parameters: [idParam],
      get: { operationId: `${noun}_read`, responses: read(schema) },
      delete: { operationId: `${noun}_delete`, responses: { "204": { description: "Gone" } } },
    },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Cards", version: "1" },
    // The notes first, as the tracker's document lists its comments before its tasks.
    paths: { ...resource("notes", "Note"), ...resource("cards", "Card") },
    components: {
      schemas: {
        Note: {
          type: "object",
          properties: {
            id: { type: "integer", readOnly: true },
            card: { type: "integer" },
            text: { type: "string" },
          },
          required: ["card", "id", "text"],
        },
        Card: {
          type: "object",
          properties: {
            id: { type: "integer", readOnly: true },
            title: { type: "string", maxLength: 100 },
            notes: { type: "array", items: ref("Note"), readOnly: true },
          },
          required: ["id", "notes", "title"],
        },
      },
    },
  };
}

/** A running stand-in and the note bodies it got. */
interface Stand {
  base: string;
  notes: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Answers as the task tracker does: a note's card must exist. */
function startServer(): Stand {
  const notes: Record<string, unknown>[] = [];
  const items = new Map<string, Set<number>>([["cards", new Set()], ["notes", new Set()]]);
  let next = 40;
  const stand = serveStandIn(async (req) => {
    const [, noun, id] = new URL(req.url).pathname.split("/");
    const mine = items.get(noun);
    if (!mine) return Response.json({ detail: "Not found." }, { status: 404 });
    if (req.method === "POST" && !id) {
      const got = await req.json();
      if (noun === "notes") {
        notes.push(got);
        if (!items.get("cards")!.has(Number(got.card))) {
          return Response.json({ card: [`Invalid pk "${got.card}"`] }, { status: 400 });
        }
      }
      mine.add(++next);
      return Response.json({ ...got, id: next, notes: [] }, { status: 201 });
    }
    if (!mine.has(Number(id))) return Response.json({ detail: "Not found." }, { status: 404 });
    if (req.method === "DELETE") {
      mine.delete(Number(id));
      return new Response(null, { status: 204 });
    }
    return Response.json({ id: Number(id), title: "t", card: 41, text: "x", notes: [] });
  });
  return { ...stand, notes };
}

Deno.test("convert openapi: a readOnly list in a create's schema links that create to nothing", async () => {
  const server = startServer();
  const { runs: [run], summary } = await convertAndRunSuite(document(), server);
  // The card is made first and the note names it, not the literal 1.
  assert.equal(server.notes.length, 1, JSON.stringify(server.notes));
  assert.ok(Number(server.notes[0].card) > 40, JSON.stringify(server.notes));
  assert.match(summary, /card of POST \/notes\/ ← POST \/cards\//, summary);
  assert.doesNotMatch(summary, /notes\.\[\]/, summary);
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
