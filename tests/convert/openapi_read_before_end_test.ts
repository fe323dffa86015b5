/**
 * `convert openapi` on an operation that reads items creates made, in its
 * body, and is no create itself (a Hono backend's `POST /api/articleTags`
 * with `{articleId, tagIds}`, alone on its path, so an action on the whole
 * API that runs last): it ran after `DELETE /api/tag/{id}` had deleted the
 * tag it names, and the backend answered 500 (a foreign key violation).
 * What reads an item now runs before the operation that ends it, whatever
 * their ranks. The stand-in runs on 127.0.0.1 and the suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const ITEM = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "number" }, name: { type: "string" } },
};
const NEW = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
const ID = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

/** A collection and its items: create, list, read, delete. */
const collection = (tag: string) => ({
  [`/${tag}s`]: {
    get: {
      tags: [tag],
      responses: { 200: { description: "All", ...json({ type: "array", items: ITEM }) } },
    },
    post: {
      tags: [tag],
      requestBody: json(NEW),
      responses: { 200: { description: "Made", ...json(ITEM) } },
    },
  },
  [`/${tag}s/{id}`]: {
    parameters: ID,
    get: { tags: [tag], responses: { 200: { description: "One", ...json(ITEM) } } },
    delete: { tags: [tag], responses: { 200: { description: "Gone", ...json(ITEM) } } },
  },
});

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "articles", version: "1" },
  paths: {
    ...collection("article"),
    ...collection("tag"),
    "/articleTags": {
      post: {
        tags: ["tag"],
        requestBody: json({
          type: "object",
          required: ["articleId", "tagIds"],
          properties: {
            articleId: { type: "number" },
            tagIds: { type: "array", items: { type: "number" } },
          },
        }),
        responses: { 200: { description: "Tagged", ...json({ type: "object" }) } },
      },
    },
  },
};

Deno.test("convert openapi: what reads a created item runs before the operation that ends it", async () => {
  const items = new Map<string, Map<number, unknown>>([["articles", new Map()], [
    "tags",
    new Map(),
  ]]);
  let next = 1;
  const tagged: number[] = [];
  const server = serveStandIn(async (req) => {
    const [, kind, id] = new URL(req.url).pathname.split("/");
    if (kind === "articleTags") {
      const { articleId, tagIds } = await req.json();
      const missing = !items.get("articles")!.has(articleId) ||
        (tagIds as number[]).some((t) => !items.get("tags")!.has(t));
      // What the backend's database does with a row naming a deleted one.
      if (missing) return Response.json({ message: "foreign key violation" }, { status: 500 });
      tagged.push(articleId);
      return Response.json({});
    }
    const all = items.get(kind);
    if (!all) return new Response(null, { status: 404 });
    if (req.method === "POST") {
      const item = { id: next++, ...await req.json() };
      all.set(item.id, item);
      return Response.json(item);
    }
    if (id === undefined) return Response.json([...all.values()]);
    const item = all.get(Number(id));
    if (!item) return new Response(null, { status: 404 });
    if (req.method === "DELETE") all.delete(Number(id));
    return Response.json(item);
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(tagged.length, 2);
});
