/**
 * A run whose creates the server refuses because two flows sent them at
 * once: a server that numbers new items itself by reading the largest id
 * and writing it plus one (an Express API measured by hand on 2026-11-28:
 * 500 "Duplicate entry '1' for key 'PRIMARY'") refuses the second of two
 * creates that overlap. The run said only `expected 200, got 500`. A create
 * (a POST to a collection) answering a 5xx the document does not list now
 * makes the coverage lines say what may cause it and how to tell: run again
 * with `--jobs 1`. The converted suite of a document of two flows that both
 * create a note (one copies the create for what it reads) runs against a
 * stand-in on 127.0.0.1 numbering notes that way; with `--jobs 1` it passes
 * and nothing is said.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const note = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "integer" }, title: { type: "string" } },
};
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];

const document = {
  openapi: "3.0.0",
  info: { title: "race", version: "1" },
  paths: {
    "/notes": {
      post: {
        tags: ["Notes"],
        requestBody: json(note),
        responses: { 201: { description: "A note", ...json(note) } },
      },
    },
    "/notes/{id}": {
      get: {
        tags: ["Notes"],
        parameters: id,
        responses: { 200: { description: "", ...json(note) } },
      },
    },
    "/notes/{id}/comments": {
      post: {
        tags: ["Comments"],
        parameters: id,
        requestBody: json({
          type: "object",
          required: ["text"],
          properties: { text: { type: "string" } },
        }),
        responses: { 201: { description: "A comment" } },
      },
    },
  },
};

/** Notes numbered by reading the largest id, then, a moment later, writing it plus one. */
function racyServer() {
  const notes = new Map<number, unknown>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/notes") {
      const body = await req.json();
      const next = Math.max(0, ...notes.keys()) + 1;
      await new Promise((r) => setTimeout(r, 150));
      if (notes.has(next)) return Response.json({ error: "Duplicate entry" }, { status: 500 });
      notes.set(next, { ...body, id: next });
      return Response.json(notes.get(next), { status: 201 });
    }
    const found = notes.get(Number(path.split("/")[2]));
    if (!found) return new Response(null, { status: 404 });
    return req.method === "POST" ? new Response(null, { status: 201 }) : Response.json(found);
  });
}

Deno.test("run: a create refused 5xx while flows ran at once says the server may number items racily, and how to tell", async () => {
  const { runs, summary } = await convertAndRunSuite(document, racyServer(), {
    extra: ["--jobs", "4"],
  });
  const out = runs[0].stdout + runs[0].stderr;
  assert.notEqual(runs[0].code, 0, summary + out);
  assert.match(out, /POST \/notes answered 500/, out);
  assert.match(out, /--jobs 1/, out);
});

Deno.test("run: one flow at a time, the same server accepts every create and nothing is said", async () => {
  const { runs, summary } = await convertAndRunSuite(document, racyServer(), {
    extra: ["--jobs", "1"],
  });
  const out = runs[0].stdout + runs[0].stderr;
  assert.equal(runs[0].code, 0, summary + out);
  assert.doesNotMatch(out, /--jobs 1/, out);
});
