/**
 * `convert openapi`: an update of many whose body is a list of items (or
 * a `oneOf` of such a list and one item), found on Directus 10
 * (tests/real/directus_openapi_test.ts): `PATCH /items/articles` was sent
 * `[{}]`, an item with no key and nothing to change, and refused (400).
 * The list now holds one item: the flow's own (its key, captured as the
 * item's own path is given it) and one change, as the item's own PATCH
 * sends.
 *
 * The stand-in runs on 127.0.0.1 and answers as Directus does: a list
 * updates each item by its key, anything else is refused.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});
const data = (schema: unknown) => ({ type: "object", properties: { data: schema } });
const article = { $ref: "#/components/schemas/Article" };
const idParam = { name: "id", in: "path", required: true, schema: { type: "integer" } };

/** Articles: a create, a listing, an update of many (a list or one item), an item's read and update. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "CMS", version: "1" },
    components: {
      schemas: {
        Article: {
          type: "object",
          properties: {
            id: { type: "integer" },
            title: { type: "string", nullable: true },
            published: { type: "boolean", nullable: true },
          },
        },
      },
    },
    paths: {
      "/items/articles": {
        get: {
          operationId: "readArticles",
          responses: ok(data({ type: "array", items: article })),
        },
        post: {
          operationId: "createArticle",
          requestBody: { content: json(article) },
          responses: ok(data(article)),
        },
        patch: {
          operationId: "updateArticles",
          requestBody: { content: json({ oneOf: [{ type: "array", items: article }, article] }) },
          responses: ok(data({ type: "array", items: article })),
        },
      },
      "/items/articles/{id}": {
        parameters: [idParam],
        get: { operationId: "readArticle", responses: ok(data(article)) },
        patch: {
          operationId: "updateArticle",
          requestBody: { content: json(article) },
          responses: ok(data(article)),
        },
      },
    },
  };
}

/** Articles by key; a PATCH of the collection takes a list of items, each naming one by its key. */
function cms() {
  const articles = new Map<number, Record<string, unknown>>();
  let next = 1;
  const invalid = (message: string) =>
    Response.json({ errors: [{ message, extensions: { code: "INVALID_PAYLOAD" } }] }, {
      status: 400,
    });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "GET" ? undefined : await req.json().catch(() => undefined);
    const key = Number(/^\/items\/articles\/(\d+)$/.exec(pathname)?.[1]);
    if (pathname === "/items/articles" && req.method === "GET") {
      return Response.json({ data: [...articles.values()] });
    }
    if (pathname === "/items/articles" && req.method === "POST") {
      const made = { ...body, id: next++ };
      articles.set(made.id, made);
      return Response.json({ data: made });
    }
    if (pathname === "/items/articles" && req.method === "PATCH") {
      if (!Array.isArray(body)) return invalid('"data" is required');
      if (body.length === 0) return invalid("nothing to update");
      for (const item of body) {
        if (!articles.has(item?.id)) return invalid(`no article ${item?.id}`);
        if (Object.keys(item).length < 2) return invalid(`nothing changes in ${item.id}`);
      }
      for (const item of body) articles.set(item.id, { ...articles.get(item.id), ...item });
      return Response.json({ data: body.map((item) => articles.get(item.id)) });
    }
    if (!articles.has(key)) {
      return Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
    }
    if (req.method === "PATCH") articles.set(key, { ...articles.get(key), ...body, id: key });
    return Response.json({ data: articles.get(key) });
  });
}

Deno.test("convert openapi: an update of many taking a list of items sends the flow's own item with a change", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), cms(), { runs: 2 });
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${[...flows.values()]}\n${run.stdout}`);
  }
  const flow = [...flows.values()].join("\n");
  assert.doesNotMatch(flow, /- \{\}/);
  // The flow's own article, by the key its create answered, and one change.
  assert.match(flow, /body:\n {8}- id: \$\{steps\.create_article\.capture\.id\}\n {10}title: /);
});
