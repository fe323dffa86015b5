/**
 * `convert openapi`: a body member named for another resource whose schema
 * offers an integer among its choices (`oneOf: [{type: integer}, {type:
 * string}]`) is an id of that resource, as a bare integer is. Seen on
 * Strapi 5's generated document: `ArticleRequest.data.category` is such a
 * `oneOf` with the example `"string or id"`, which the body sent as it was,
 * and the server refused it (400 "Document with id \"string or id\" … not
 * found"). It is now the id the category's create answered (`data.id`);
 * the stand-in refuses an article naming a category it did not make. The
 * category's create takes the relation's other side, an optional list of
 * article ids of the same shape: linking both made each create wait for the
 * other, and neither was copied into the other's flow; the list, the
 * inverse of the article's one category, is left as the body had it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const relation = {
  oneOf: [{ type: "integer" }, { type: "string" }],
  example: "string or id",
};

/** A JSON body `{data: {...properties}}`, `data` requiring `required`. */
function wrapped(properties: Record<string, unknown>, required: string[]) {
  const data = { type: "object", required, properties };
  return {
    required: true,
    content: {
      "application/json": {
        schema: { type: "object", required: ["data"], properties: { data } },
      },
    },
  };
}

/** A 200 answering `{data: {id, documentId, ...}}`. */
function answered(properties: Record<string, unknown>) {
  const id = { oneOf: [{ type: "string" }, { type: "number" }] };
  const data = {
    type: "object",
    properties: { id, documentId: { type: "string" }, ...properties },
  };
  const schema = { type: "object", properties: { data, meta: { type: "object" } } };
  return { "200": { description: "OK", content: { "application/json": { schema } } } };
}

function document() {
  return {
    openapi: "3.0.0",
    info: { title: "Blog", version: "1.0.0" },
    paths: {
      "/categories": {
        post: {
          tags: ["Category"],
          // The relation's other side: the category's articles, an optional list of the same ids.
          requestBody: wrapped(
            { name: { type: "string" }, articles: { type: "array", items: relation } },
            ["name"],
          ),
          responses: answered({ name: { type: "string" } }),
        },
      },
      "/articles": {
        post: {
          tags: ["Article"],
          requestBody: wrapped({ title: { type: "string" }, category: relation }, ["title"]),
          responses: answered({ title: { type: "string" } }),
        },
      },
    },
  };
}

Deno.test("convert openapi: a body member naming a category whose oneOf offers an integer is the id the category's create answered", async () => {
  const categories = new Set<number>();
  const sent: unknown[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const { data } = await req.json();
    if (path === "/categories") {
      const id = 40 + categories.size;
      categories.add(id);
      return Response.json({ data: { id, documentId: `doc${id}`, name: data.name }, meta: {} });
    }
    sent.push(data.category);
    if (data.category !== undefined && !categories.has(data.category)) {
      const message = `Document with id "${data.category}" not found`;
      return Response.json({ data: null, error: { status: 400, message } }, { status: 400 });
    }
    return Response.json({ data: { id: 1, documentId: "a1", title: data.title }, meta: {} });
  });
  const { summary, runs } = await convertAndRunSuite(document(), server);
  assert.match(summary, /data\.category of POST \/articles ← POST \/categories \$\.json\.data\.id/);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(sent.length, 1);
  assert.ok(categories.has(sent[0] as number), String(sent[0]));
});
