/**
 * `convert openapi` on a document where a body names an item of another
 * collection whose create answers no id and documents a 409: an Express shop
 * API (measured by hand, documented by swagger-autogen) takes `POST /cart/
 * {ProductId}` (optional, example `1`), and its `POST /products/` answers
 * only a message and documents 409 for a name that exists. Such a create is
 * never copied into another flow (a copy makes the same item twice), so the
 * cart's product was linked to nothing and left out: `{}`, 400 "ProductId is
 * required"; the product's own `BrandId` and `CategoryId` the same. The
 * listing the create's ids are read from is a read any flow may copy: its
 * first item, one that exists, is sent now, without the create. With the
 * list at the top of the listing's answer or inside its envelope.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

const SHAPES = [
  { name: "a list at the top", wrap: (list: unknown) => list },
  {
    name: "JSend's envelope",
    wrap: (list: unknown) => object({ status: {}, data: object({ products: list }) }),
  },
];

function document(wrap: (list: unknown) => unknown) {
  const said = { 200: { description: "Done", ...json(object({ result: { type: "string" } })) } };
  const product = object({ id: { type: "number", example: 1 }, name: { type: "string" } });
  return {
    openapi: "3.0.3",
    info: { title: "shop", version: "1" },
    paths: {
      "/products/": {
        get: {
          tags: ["Products"],
          responses: {
            200: { description: "All", ...json(wrap({ type: "array", items: product })) },
          },
        },
        post: {
          tags: ["Products"],
          requestBody: json(object({ name: { type: "string", example: "A product" } })),
          responses: { ...said, 409: { description: "A product of that name exists" } },
        },
      },
      "/products/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        delete: { tags: ["Products"], responses: said },
      },
      "/cart/": {
        post: {
          tags: ["Cart"],
          requestBody: json(object({ ProductId: { type: "number", example: 1 } })),
          responses: { ...said, 404: { description: "No such product" } },
        },
      },
    },
  };
}

/** A shop with products 7 and 8 (none numbered 1); counts the cart's adds by what they named. */
function standIn(enveloped: boolean) {
  const products = new Map<number, string>([[7, "Phone"], [8, "TV"]]);
  let next = 9;
  const carted = { existing: 0, missing: 0, none: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/\/$/, "");
    if (path === "/products" && req.method === "GET") {
      const list = [...products].map(([id, name]) => ({ id, name }));
      return Response.json(enveloped ? { status: "success", data: { products: list } } : list);
    }
    if (path === "/products" && req.method === "POST") {
      const { name } = await req.json();
      if ([...products.values()].includes(name)) {
        return Response.json({ result: "exists" }, { status: 409 });
      }
      products.set(next++, name);
      return Response.json({ result: "Created" });
    }
    if (path.startsWith("/products/") && req.method === "DELETE") {
      return products.delete(Number(path.slice("/products/".length)))
        ? Response.json({ result: "Deleted" })
        : Response.json({ result: "No such product" }, { status: 404 });
    }
    if (path === "/cart" && req.method === "POST") {
      const { ProductId } = await req.json();
      if (ProductId === undefined) {
        return carted.none++, Response.json({ result: "required" }, { status: 400 });
      }
      if (!products.has(ProductId)) {
        return carted.missing++, Response.json({ result: "none" }, { status: 404 });
      }
      return carted.existing++, Response.json({ result: "Added" });
    }
    return new Response("not found", { status: 404 });
  });
  return { server, carted };
}

for (const [i, shape] of SHAPES.entries()) {
  Deno.test(`convert openapi: a body's item whose create is held back is the listing's first (${shape.name})`, async () => {
    const { server, carted } = standIn(i === 1);
    const { runs, summary } = await convertAndRunSuite(document(shape.wrap), server);
    assert.match(
      summary,
      /ProductId of POST \/cart\/ ← GET \/products\/ \$\.json(\.data\.products)?\[0\]\.id/,
      summary,
    );
    assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
    assert.deepEqual(carted, { existing: 1, missing: 0, none: 0 }, summary + runs[0].stdout);
  });
}
