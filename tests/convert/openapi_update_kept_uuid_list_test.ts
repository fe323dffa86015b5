/**
 * `convert openapi`: an update sends the list of UUIDs its item already holds, as the item's
 * create answered it, not the document's example of the list. Found on a Hapi social API
 * measured by hand: a post's update requires `likes` and `dislikes`, lists of account ids whose
 * examples are rows of the authors' database, and the update sent those rows: 404 "Some likes
 * are not valid!". Ids are no values a client picks to mean something; the list an update can
 * send without naming what no run made is the one the item holds, as a single UUID member is
 * (`openapi_update_kept_uuid_test.ts`).
 *
 * The stand-in below refuses, with 404 as the real one does, an update naming an account it
 * does not know.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, json } from "../support/openapi_doc_parts.ts";

/** Ids of the authors' own database, the examples of the lists. */
const AUTHORS_ROWS = [
  "0d3c5a7e-91b2-4c4f-8e6a-2f1b9c7d5e30",
  "6a1f0c2e-7b3d-4e58-9c1a-d4e2f3b5a687",
];
/** The one account the stand-in knows. */
const ACCOUNT = "b7e4d2c1-3f5a-4a6b-8c9d-0e1f2a3b4c5d";

const ids = {
  type: "array",
  example: AUTHORS_ROWS,
  items: { type: "string", format: "uuid" },
};
const text = { type: "string", example: "A quiet morning" };
const note = {
  type: "object",
  required: ["text", "likes"],
  properties: { text, likes: ids },
};
const made = {
  type: "object",
  properties: { id: { type: "string", format: "uuid" }, text, likes: ids },
};
const noteId = { name: "noteId", in: "path", required: true, schema: { type: "string" } };
const sends = (schema: unknown) => ({ required: true, content: json(schema) });

const document = {
  openapi: "3.0.0",
  info: { title: "Notes", version: "1" },
  paths: {
    "/notes": {
      post: {
        requestBody: sends({ type: "object", required: ["text"], properties: { text } }),
        responses: answers(made),
      },
    },
    "/notes/{noteId}": {
      put: { parameters: [noteId], requestBody: sends(note), responses: answers(made) },
    },
  },
};

function notes() {
  const rows: { id: string; text: string; likes: string[] }[] = [];
  return serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    const sent = await req.json();
    if (parts.length === 1) {
      const row = { id: crypto.randomUUID(), text: sent.text, likes: [] };
      rows.push(row);
      return Response.json(row);
    }
    const row = rows.find((r) => r.id === parts[1]);
    if (!row) return Response.json({ error: "not found" }, { status: 404 });
    const likes: unknown = sent.likes;
    if (!Array.isArray(likes) || likes.some((l) => l !== ACCOUNT)) {
      return Response.json({ error: "Some likes are not valid" }, { status: 404 });
    }
    Object.assign(row, { text: sent.text, likes });
    return Response.json(row);
  });
}

Deno.test("an update sends the list of UUIDs its item holds, from its create, not the example", async () => {
  const { runs, summary } = await convertAndRunSuite(document, notes(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /likes of PUT \/notes\/\{noteId\} ← POST \/notes/, summary);
});
