/**
 * `convert openapi` on a parameter under one collection that names another collection's item.
 * MITRE Caldera 5.3.0's served Swagger 2.0 document (aiohttp-apispec; measured by hand
 * 2026-11-30, docs/real-servers.md) reads "the facts of an operation" at
 * `GET /facts/{operation_id}`, beside `POST /facts` (a `Fact` answering no `id`, only its required
 * `trait`) and `POST /operations` (answering `id`). The converter took `{operation_id}` for the
 * fact's key, the create's sole required text, and sent a fact's `trait` as an operation's id:
 * Caldera answers 200 with an empty list, a server that checks answers 404. A parameter named for
 * another noun's id (`operation_id`: `operation`), where the document has a create of that noun,
 * is that create's id (`GET /relationships/{operation_id}` of the same document was read so
 * already); a parameter naming the collection's own item (`{id}`, `{factId}`) keeps the key.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const fact = { type: "object", properties: { trait: { type: "string" } }, required: ["trait"] };
const operation = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" } },
  required: ["name"],
};
const made = (schema: unknown) => ({
  requestBody: { required: true, content: json(schema) },
  responses: { "200": { description: "", content: json(schema) } },
});
const path = (name: string) => [{ name, in: "path", required: true, schema: { type: "string" } }];
const read = { responses: { "200": { description: "" } } };

Deno.test("convert openapi: a parameter named for another noun's id reads that noun's create", async () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "Facts", version: "1" },
    paths: {
      "/operations": { post: made(operation) },
      "/facts": { post: made(fact) },
      "/facts/{operation_id}": { parameters: path("operation_id"), get: read },
      "/facts/{factId}/links": { parameters: path("factId"), get: read },
    },
  };
  const operations = new Set<string>();
  const traits = new Set<string>();
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const [collection, key, more] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (req.method === "POST") {
      const body = await req.json();
      if (collection === "facts") traits.add(body.trait);
      const id = crypto.randomUUID();
      if (collection === "operations") operations.add(id);
      return Response.json(collection === "facts" ? body : { ...body, id });
    }
    const found = more ? traits.has(key) : operations.has(key);
    seen.push(`GET ${more ? "fact" : "operation"} ${found ? 200 : 404}`);
    return Response.json([], { status: found ? 200 : 404 });
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.match(summary, /\{operation_id\} of GET \/facts\/\{operation_id\} ← POST \/operations/);
  assert.deepEqual(seen.toSorted(), ["GET fact 200", "GET operation 200"], summary);
  assert.match(runs[0].stdout, /passed/, runs[0].stdout);
});
