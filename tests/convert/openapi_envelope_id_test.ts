/**
 * `convert openapi` on a document whose create answers an envelope with an
 * open payload: `{code, message, data}`, `data` an object naming no member,
 * the made item's `id` inside at run time. A course's tasks API (measured by
 * hand) answers its `POST /tasks` so; nothing in the schema named an id, so
 * the item's read, update and delete were sent the document's example id,
 * a task nobody made. An open member says as little as an undescribed answer:
 * the item's parameter is now searched for by name in the create's answer
 * (`{noteId}` as `noteId`, then `id`), the payload an object of no members
 * or of empty properties, and the read, update and delete reach the item the
 * run made. A member of no type may be a bare value (APIs.guru's Google
 * Admin `CalendarResource` has an untyped `featureInstances` beside its
 * described members): such an answer is read as it says, and a member
 * described as the item's unique identifier is read as before.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const PAYLOADS: [string, unknown][] = [
  ["an object of no members", { type: "object" }],
  ["empty properties", { type: "object", properties: {} }],
];

function document(payload: unknown, param: string, described = false) {
  const id = { type: "string", description: "The unique ID for the note." };
  const envelope = {
    type: "object",
    properties: {
      code: { type: "integer" },
      message: { type: "string" },
      data: payload,
      ...(described ? { resourceId: id } : {}),
    },
  };
  const ok = {
    200: { description: "Successful", ...json({ $ref: "#/components/schemas/response" }) },
  };
  const note = json({
    type: "object",
    required: ["text"],
    properties: { text: { type: "string" } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "notes", version: "1" },
    components: { schemas: { response: envelope } },
    paths: {
      "/notes": { post: { operationId: "addNote", requestBody: note, responses: ok } },
      [`/notes/{${param}}`]: {
        parameters: [{ name: param, in: "path", required: true, schema: { type: "string" } }],
        get: { operationId: "getNote", responses: ok },
        put: { operationId: "updateNote", requestBody: note, responses: ok },
        delete: { operationId: "deleteNote", responses: ok },
      },
    },
  };
}

function standIn() {
  const notes = new Map<string, string>();
  const counted = { made: 0, found: 0, missing: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const envelope = (code: number, data: unknown) =>
      Response.json({ code, message: "", data }, { status: code });
    if (path === "/notes" && req.method === "POST") {
      const id = crypto.randomUUID();
      notes.set(id, (await req.json()).text);
      counted.made++;
      return envelope(200, { id });
    }
    const id = decodeURIComponent(path.slice("/notes/".length));
    if (!notes.has(id)) return counted.missing++, envelope(404, {});
    counted.found++;
    if (req.method === "DELETE") notes.delete(id);
    return envelope(200, { id, text: notes.get(id) ?? "" });
  });
  return { server, counted };
}

for (const [name, payload] of PAYLOADS) {
  for (const param of ["id", "noteId"]) {
    Deno.test(
      `convert openapi: an item's {${param}} is read from its create's envelope of an open payload (${name})`,
      async () => {
        const { server, counted } = standIn();
        const { runs, summary } = await convertAndRunSuite(document(payload, param), server);
        assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
        assert.deepEqual(counted, { made: 1, found: 3, missing: 0 }, summary);
      },
    );
  }
}

Deno.test("convert openapi: an answer describing its item's identifier beside an open member is no envelope", async () => {
  const { server } = standIn();
  const { summary } = await convertAndRunSuite(document({}, "noteId", true), server, { runs: 0 });
  assert.match(
    summary,
    /\{noteId\} of GET \/notes\/\{noteId\} ← POST \/notes \$\.json\.resourceId\n/,
    summary,
  );
});

Deno.test("convert openapi: a member of no type beside the answer's own is no envelope", async () => {
  const { server } = standIn();
  const { summary } = await convertAndRunSuite(document({}, "noteId"), server, { runs: 0 });
  assert.match(summary, /path parameter noteId/, summary);
});
