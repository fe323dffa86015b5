/**
 * `convert openapi`: a path parameter named for another collection of the
 * document (`{collection}` of `/fields/{collection}`, of
 * `/utils/export/{collection}`, or `{collectionId}`), whose items nothing in the suite creates
 * but whose listing (`GET /collections` → `data[].collection`) answers,
 * found on Directus 10 (tests/real/directus_openapi_test.ts): the run made
 * up a name (`collection-<hex>`, as for an item the client names at its
 * create, since `POST /fields/{collection}` sits at the parameter's path)
 * or asked for one, and every such call was refused (403). The value is
 * the first item the collection's listing answers, the property of the
 * parameter's name.
 *
 * The stand-in server below answers as Directus does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});
const data = (schema: unknown) => ({ type: "object", properties: { data: schema } });
const field = {
  type: "object",
  properties: { id: { type: "integer" }, field: { type: "string" } },
};
const collection = {
  type: "object",
  properties: { collection: { type: "string", example: "customers" }, note: { type: "string" } },
};

/** Collections listed, never created here; fields made in one; an export of one. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "CMS", version: "1" },
    paths: {
      "/collections": {
        get: {
          operationId: "getCollections",
          responses: ok(data({ type: "array", items: collection })),
        },
      },
      "/fields/{collection}": {
        parameters: [param("collection")],
        get: { operationId: "getFields", responses: ok(data({ type: "array", items: field })) },
        post: {
          operationId: "createField",
          requestBody: {
            content: json({
              type: "object",
              required: ["field"],
              properties: { field: { type: "string", example: "title" } },
            }),
          },
          responses: ok(data(field)),
        },
      },
      "/fields/{collection}/{id}": {
        parameters: [param("collection"), param("id")],
        get: { operationId: "getField", responses: ok(data(field)) },
        delete: { operationId: "deleteField", responses: { "204": { description: "Gone" } } },
      },
      "/utils/export/{collection}": {
        parameters: [param("collection")],
        post: { operationId: "exportItems", responses: ok() },
      },
      "/utils/sort/{collectionId}": {
        parameters: [param("collectionId")],
        post: { operationId: "sortItems", responses: ok() },
      },
    },
  };
}

/** One collection, `articles`; fields made in it; anything else is forbidden, as Directus answers. */
function cms() {
  const fields = new Map<number, string>();
  let next = 1;
  const forbidden = () => Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/collections") {
      return Response.json({ data: [{ collection: "articles", note: "News" }] });
    }
    const [, area, name, rest] =
      /^\/(fields|utils\/export|utils\/sort)\/([^/]+)(?:\/(\d+))?$/.exec(pathname) ??
        [];
    if (name !== "articles") return forbidden();
    if (area.startsWith("utils")) return Response.json({ data: null });
    if (rest === undefined && req.method === "POST") {
      const body = await req.json();
      fields.set(next, String(body.field));
      return Response.json({ data: { id: next++, field: body.field } });
    }
    if (rest === undefined) {
      return Response.json({ data: [...fields].map(([id, f]) => ({ id, field: f })) });
    }
    if (!fields.has(Number(rest))) return forbidden();
    if (req.method === "DELETE") {
      fields.delete(Number(rest));
      return new Response(null, { status: 204 });
    }
    return Response.json({ data: { id: Number(rest), field: fields.get(Number(rest)) } });
  });
}

Deno.test("a parameter named for a listed collection nothing creates takes the listing's first item", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), cms(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const all = [...flows.values()].join("\n");
  assert.doesNotMatch(all, /collection-\$\{RANDOM/, "no name made up for a listed collection");
  assert.match(all, /\$\.json\.data\[0\]\.collection|\$\.json\.data\.0\.collection/);
  // The whole summary asks for nothing but the origin.
  assert.match(summary, /variables:\n {2}BASE_URL: the API.s origin\nNo placeholders to fill in\./);
  // Each call on a collection, whatever the parameter's suffix, read it so.
  assert.equal(summary.match(/← GET \/collections \$\.json\.data\[0\]\.collection/g)?.length, 6);
});
