/**
 * `convert openapi` on a collection whose last word could be read as a create
 * verb: an AI workflow server's document (2026) lists and creates its
 * knowledge stores at `GET|POST /document-store/store` and reads, updates
 * and deletes one at `/document-store/store/{id}`. `store` is one of the
 * create verbs (`POST /bookmark/create` makes items of `/bookmark`,
 * `verb_segments.ts`), so the create was taken for one of `/document-store`,
 * which has no items: `{id}` was read from the listing's first entry instead
 * of the create's answer, its own store only while the server lists the
 * newest first; on one listing the oldest first (this stand-in) the suite
 * read, changed and deleted a store it did not make (the flow ran last,
 * alone, "it removes what it did not make"). The document's paths are the
 * evidence, not the word: a path with
 * items under it, or read as well as posted, is a collection itself, and a
 * POST there makes its items, whatever its last word.
 *
 * The stand-in runs on 127.0.0.1, holds one store someone else made, and
 * answers 404 for a store it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const shelf = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    name: { type: "string" },
    note: { type: "string" },
  },
};
const ok = (schema: unknown = shelf) => ({ "200": { description: "Done", ...json(schema) } });
const idParam = [{ in: "path", name: "id", required: true, schema: { type: "string" } }];
const tags = ["archive-store"];

const document = {
  openapi: "3.0.3",
  info: { title: "Archives", version: "1.0.0" },
  paths: {
    "/archive-store/store": {
      post: { tags, requestBody: { required: true, ...json(shelf) }, responses: ok() },
      get: { tags, responses: ok({ type: "array", items: shelf }) },
    },
    "/archive-store/store/{id}": {
      get: { tags, parameters: idParam, responses: ok() },
      put: { tags, parameters: idParam, requestBody: json(shelf), responses: ok() },
      delete: { tags, parameters: idParam, responses: ok({ type: "object" }) },
    },
  },
};

const OTHERS = "0a0b0c0d-0000-4000-8000-000000000001";

/** Shelves in memory, one made by someone else first (listed first). */
function standIn(seen: string[]) {
  const held = new Map([[OTHERS, { id: OTHERS, name: "someone else's", note: "" }]]);
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (pathname === "/archive-store/store") {
      if (req.method === "GET") return Response.json([...held.values()]);
      const made = { note: "", ...await req.json(), id: crypto.randomUUID() };
      held.set(made.id, made);
      return Response.json(made);
    }
    const id = /^\/archive-store\/store\/([^/]+)$/.exec(pathname)?.[1] ?? "";
    const item = held.get(id);
    if (!item) return Response.json({ message: `No store ${id}` }, { status: 404 });
    if (req.method === "DELETE") held.delete(id);
    if (req.method === "PUT") Object.assign(item, await req.json(), { id });
    return Response.json(req.method === "DELETE" ? {} : item);
  });
}

Deno.test("convert openapi: a collection whose last word is a create verb makes its own items", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document, standIn(seen), { runs: 2 });
  const made =
    /\{id\} of (GET|PUT|DELETE) \/archive-store\/store\/\{id\} ← POST \/archive-store\/store \$\.json\.id/g;
  assert.equal(summary.match(made)?.length, 3, summary);
  assert.doesNotMatch(summary, /first of its listing/);
  for (const text of flows.values()) assert.doesNotMatch(text, /what it did not make/);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout);
  // The store someone else made is never read, changed or deleted.
  assert.ok(!seen.some((s) => s.endsWith(OTHERS)), seen.join(", "));
  assert.equal(seen.filter((s) => s.startsWith("DELETE ")).length, 2, seen.join(", "));
});
