/**
 * `convert openapi` on a document whose creates answer nothing it describes
 * (`201: {description: "Product created"}`, as `swagger-jsdoc` comments and
 * `@nestjs/swagger` without response types write them), and whose other
 * create's body names one of those items by id (an Express shop API on
 * PostgreSQL, measured by hand: `POST /api/cart/{cartId}` takes
 * `{product_id, quantity}` beside `POST /api/products`). A path parameter
 * of such a create was read from its answer already (the first member named
 * for it anywhere, undescribed_answer.ts), but a body's id was read only
 * from a described answer or listing: the cart was sent its example `1`,
 * a product no fresh server holds (500 from its foreign key), and the
 * checkout and the orders after it found the cart empty. The body's id is
 * now read the same way, wherever the answer holds it (at its top, or
 * wrapped), under the body's name (`product_id`, `productId`) or as `id`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { json } from "../support/openapi_doc_parts.ts";

const said = (description: string) => ({ "201": { description } });

/** The shop's document: products, and a cart whose item names a product by `field`. */
function document(field: string) {
  const object = (required: string[], properties: Record<string, unknown>) => ({
    required: true,
    content: json({ type: "object", required, properties }),
  });
  return {
    openapi: "3.0.0",
    info: { title: "Shop", version: "1" },
    paths: {
      "/products": {
        post: {
          tags: ["Products"],
          requestBody: object(["name", "price"], {
            name: { type: "string" },
            price: { type: "number" },
          }),
          responses: said("Product created"),
        },
      },
      "/cart": { post: { tags: ["Cart"], responses: said("Cart created") } },
      "/cart/{cartId}": {
        post: {
          tags: ["Cart"],
          parameters: [{ name: "cartId", in: "path", required: true, schema: { type: "integer" } }],
          requestBody: object([field, "quantity"], {
            [field]: { type: "integer" },
            quantity: { type: "integer" },
          }),
          responses: said("Item added to cart"),
        },
      },
    },
  };
}

type Seen = { method: string; path: string; status: number }[];

/** Products and carts numbered from 1; an item of a product that does not exist is refused 400. */
function shopServer(seen: Seen, field: string, wrapped: boolean) {
  const products = new Set<number>();
  let carts = 0;
  const wrap = (item: Record<string, unknown>) => wrapped ? { data: item } : item;
  const answer = (req: Request, res: Response) => {
    seen.push({ method: req.method, path: new URL(req.url).pathname, status: res.status });
    return res;
  };
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = await req.json().catch(() => ({}));
    if (path === "/products") {
      products.add(products.size + 1);
      return answer(req, Response.json(wrap({ id: products.size, ...sent }), { status: 201 }));
    }
    if (path === "/cart") return answer(req, Response.json(wrap({ id: ++carts }), { status: 201 }));
    if (!products.has(sent[field])) {
      return answer(req, Response.json({ error: "no such product" }, { status: 400 }));
    }
    return answer(req, Response.json(wrap({ id: 1, ...sent }), { status: 201 }));
  });
}

for (const [field, wrapped] of [["product_id", false], ["productId", true]] as const) {
  Deno.test(`convert openapi: a body's ${field} is read from its create's undescribed answer${wrapped ? " (wrapped)" : ""}`, async () => {
    const seen: Seen = [];
    const server = shopServer(seen, field, wrapped);
    try {
      const { runs, summary } = await convertAndRunSuite(document(field), server, { runs: 2 });
      for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
      const items = seen.filter((r) => r.path.startsWith("/cart/"));
      assert.ok(items.length >= 2 && items.every((r) => r.status === 201), JSON.stringify(seen));
      assert.match(summary, new RegExp(`${field} of POST /cart/\\{cartId\\} ← POST /products`));
    } finally {
      await server.close();
    }
  });
}
