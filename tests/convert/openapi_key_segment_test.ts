/**
 * `convert openapi` on a document that addresses an item by another of its
 * keys under a segment naming the key: `GET /api/products/slug/{slug}` and
 * `/api/products/slug/{slug}/related` beside `POST /api/products`, whose
 * answer `@nestjs/swagger` leaves undescribed (`201: {description: ""}`); the
 * server makes the slug of the title (a NestJS store API, 2025). Before,
 * `/api/products/slug` was taken for the collection, which nothing creates:
 * the summary asked for "the slug of one that exists" and, run as printed,
 * each read was refused (400 `EntityNotFoundError`). Now the segment right
 * before the parameter that spells its name (or `by` and its name) puts the
 * item in the noun's collection before it: the slug is read from the
 * create's answer, as an id is, and the reads run after the create and
 * before the delete. A segment that is no key's name (`/tags/{id}`) is left
 * as it was.
 *
 * The stand-in runs on 127.0.0.1 and answers 400 for a slug it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const undescribed = (status: string) => ({ [status]: { description: "" } });
const param = (name: string, type = "string") => [
  { name, in: "path", required: true, schema: { type } },
];
const writes = {
  type: "object",
  properties: { title: { type: "string" }, price: { type: "number" } },
  required: ["title", "price"],
};
const read = (name: string, type?: string) => ({
  get: { tags: ["products"], parameters: param(name, type), responses: undescribed("200") },
});

const document = {
  openapi: "3.0.0",
  info: { title: "Store", version: "1.0" },
  paths: {
    "/api/products": {
      post: { tags: ["products"], requestBody: json(writes), responses: undescribed("201") },
    },
    "/api/products/{id}": {
      ...read("id", "number"),
      delete: {
        tags: ["products"],
        parameters: param("id", "number"),
        responses: undescribed("200"),
      },
    },
    "/api/products/slug/{slug}": read("slug"),
    "/api/products/slug/{slug}/related": read("slug"),
    "/api/products/by-sku/{sku}": read("sku"),
  },
};

/** Products in memory: made with a slug of their title and a sku; an unknown key is 400. */
function standIn(seen: string[]) {
  const held: { id: number; title: string; slug: string; sku: string }[] = [];
  let next = 7;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST") {
      const { title } = await req.json();
      const id = next++;
      const made = {
        id,
        title,
        slug: String(title).toLowerCase().replace(/\W+/g, "-"),
        sku: `SKU${id}`,
      };
      held.push(made);
      return Response.json(made, { status: 201 });
    }
    const [, key, value] = /^\/api\/products\/(?:(slug|by-sku)\/)?([^/]+)/.exec(pathname) ?? [];
    const found = held.find((p) =>
      key === "slug"
        ? p.slug === value
        : key === "by-sku"
        ? p.sku === value
        : p.id === Number(value)
    );
    if (!found) {
      return Response.json({ name: "EntityNotFoundError", message: `no ${value}` }, {
        status: 400,
      });
    }
    if (req.method === "DELETE") held.splice(held.indexOf(found), 1);
    return Response.json(pathname.endsWith("/related") ? [] : found);
  });
}

Deno.test("convert openapi: an item under a segment naming its key is its collection's create's", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen));
  assert.match(summary, /\{slug\} of GET \/api\/products\/slug\/\{slug\} ← POST \/api\/products/);
  assert.match(summary, /\{sku\} of GET \/api\/products\/by-sku\/\{sku\} ← POST \/api\/products/);
  assert.doesNotMatch(summary, /Fill in/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  // Each read by a key after the create, the delete last.
  const created = seen.indexOf("POST /api/products");
  const removed = seen.findIndex((s) => s.startsWith("DELETE "));
  for (const path of ["/slug/", "/related", "/by-sku/"]) {
    const at = seen.findIndex((s) => s.includes(path));
    assert.ok(created < at && at < removed, `${path}: ${seen.join(", ")}`);
  }
});
