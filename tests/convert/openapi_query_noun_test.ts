/**
 * `convert openapi` on a listing filtered by a required query parameter
 * named for an id (a Hono backend's `GET /api/comment?articleId=`, typed
 * as text as every query value is) that no create's answer holds under
 * that name: the article's create answers `{id, …}`. The parameter was
 * sent as its type's sample (`articleId=string`) and the backend answered
 * 422 ("Expected number, received nan"). Like an id field of a body
 * (`{articleId}` of `POST /api/comment`, already read from the article's
 * create), it is now read from the create of the collection its name
 * names, `POST /articles`' `id`. An optional one is still left out. The
 * stand-in runs on 127.0.0.1 and the suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };

const ARTICLE = {
  type: "object",
  required: ["id", "title"],
  properties: { id: { type: "number" }, title: text },
};
const COMMENT = {
  type: "object",
  required: ["id", "body", "articleId"],
  properties: { id: { type: "number" }, body: text, articleId: { type: "number" } },
};

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "blog", version: "1" },
  paths: {
    "/articles": {
      post: {
        requestBody: json({ type: "object", required: ["title"], properties: { title: text } }),
        responses: { 200: { description: "Made", ...json(ARTICLE) } },
      },
      get: {
        responses: { 200: { description: "All", ...json({ type: "array", items: ARTICLE }) } },
      },
    },
    "/comments": {
      get: {
        parameters: [
          { name: "articleId", in: "query", required: true, schema: text },
          { name: "authorId", in: "query", required: false, schema: text },
        ],
        responses: {
          200: { description: "Its comments", ...json({ type: "array", items: COMMENT }) },
        },
      },
    },
  },
};

Deno.test("convert openapi: a required query id no answer holds by name is read from its noun's create", async () => {
  const articles: number[] = [];
  const asked: string[] = [];
  const server = serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/articles" && req.method === "POST") {
      articles.push(articles.length + 1);
      return Response.json({ id: articles.length, ...await req.json() });
    }
    if (url.pathname === "/articles") return Response.json([]);
    asked.push(url.search);
    const id = Number(url.searchParams.get("articleId"));
    if (Number.isNaN(id)) return Response.json({ message: "Expected number" }, { status: 422 });
    return Response.json(articles.includes(id) ? [] : null, {
      status: articles.includes(id) ? 200 : 404,
    });
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(asked.length, 2);
  for (const search of asked) assert.match(search, /^\?articleId=\d+$/);
});
