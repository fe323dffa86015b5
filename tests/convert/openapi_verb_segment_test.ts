/**
 * `convert openapi` on a document whose items are addressed under a verb
 * segment after their collection's noun, as small FastAPI and Express APIs
 * route them: `POST /post` creates, `GET /post/get/{id}` reads and
 * `GET /post/delete/{id}` deletes (a course's Instagram API on FastAPI,
 * 2022). Before, `{id}` was read from nothing (`/post/delete` is no
 * collection), so the summary asked for "the id of one that exists" and the
 * delete ran with `1` before the create, refused 404 on a fresh database and
 * 403 on another account's post. Now the segment before the parameter, a
 * delete, read or update verb after a noun, names the item of the noun's
 * collection: `{id}` is the id `POST /post` answers, and a GET under a
 * delete verb runs last, after the reads of the item it removes.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for a post it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const post = {
  type: "object",
  properties: { id: { type: "integer" }, caption: { type: "string" } },
  required: ["id", "caption"],
};
const idParam = [{ schema: { type: "integer" }, in: "path", name: "id", required: true }];
const ok = (schema: unknown = {}) => ({
  "200": { description: "Successful Response", ...json(schema) },
});

const document = {
  openapi: "3.0.2",
  info: { title: "FastAPI", version: "0.1.0" },
  paths: {
    "/post": {
      post: {
        tags: ["post"],
        requestBody: json({
          type: "object",
          properties: { caption: { type: "string" } },
          required: ["caption"],
        }),
        responses: ok(post),
      },
    },
    "/post/all": { get: { tags: ["post"], responses: ok({ type: "array", items: post }) } },
    "/post/delete/{id}": { get: { tags: ["post"], parameters: idParam, responses: ok() } },
    "/post/get/{id}": { get: { tags: ["post"], parameters: idParam, responses: ok(post) } },
  },
};

/** Posts in memory: a read or delete of one it does not hold is 404. */
function standIn(seen: string[]) {
  const posts = new Map<number, { id: number; caption: string }>();
  let next = 41;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST" && pathname === "/post") {
      const { caption } = await req.json();
      const made = { id: next++, caption };
      posts.set(made.id, made);
      return Response.json(made);
    }
    if (pathname === "/post/all") return Response.json([...posts.values()]);
    const [, verb, id] = /^\/post\/(get|delete)\/(\d+)$/.exec(pathname) ?? [];
    const held = posts.get(Number(id));
    if (!held) return Response.json({ detail: `Post with id ${id} not found` }, { status: 404 });
    if (verb === "delete") posts.delete(held.id);
    return Response.json(verb === "delete" ? "ok" : held);
  });
}

Deno.test("convert openapi: an item under a verb segment is its noun's create's, deleted last", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen));
  assert.match(summary, /\{id\} of GET \/post\/delete\/\{id\} ← POST \/post \$\.json\.id/);
  assert.match(summary, /\{id\} of GET \/post\/get\/\{id\} ← POST \/post \$\.json\.id/);
  assert.doesNotMatch(summary, /Fill in/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  // The read of the post before its delete, the delete last.
  const read = seen.findIndex((s) => s.startsWith("GET /post/get/"));
  const removed = seen.findIndex((s) => s.startsWith("GET /post/delete/"));
  assert.ok(read >= 0 && read < removed, seen.join(", "));
});
