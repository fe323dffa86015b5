/**
 * `convert openapi`: a body's list of objects each naming an item another
 * create makes (`products: [{id, quantity}]` of an order, `lines:
 * [{productId, quantity}]` of a cart) is sent, each item's id read from
 * that create's answer. Found on an Express restaurant API's own document
 * (measured by hand, docs/real-servers.md): its `Order` lists no `required`
 * and gives examples only inside `products`' items, so the order was sent
 * `{"paymentMethodId": 1}` and refused 400 (`"products" is required`), and
 * its read, update and delete never ran; the list named for a collection
 * was left out as naming items that must exist, which no create filled.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1: an
 * order or a cart line naming a product that does not exist is refused.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const idParam = { name: "id", in: "path", required: true, schema: { type: "integer" } };
const answer = (status: string) => ({
  [status]: {
    description: "Made",
    content: json({ type: "object", properties: { id: { type: "integer" } } }),
  },
});
const ok = { "200": { description: "OK" } };
const body = (schema: unknown) => ({ required: true, content: json(schema) });

/** Products, orders of products (no `required`), carts of lines (`lines` required). */
function document(): Record<string, unknown> {
  const item = (key: string) => ({
    type: "object",
    properties: {
      [key]: { type: "integer", format: "int64", ...key === "id" ? { example: 1 } : {} },
      quantity: { type: "integer", format: "int64", example: 1 },
    },
  });
  const resource = (noun: string, schema: unknown) => ({
    [`/${noun}`]: {
      post: { operationId: `create_${noun}`, requestBody: body(schema), responses: answer("200") },
    },
    [`/${noun}/{id}`]: {
      parameters: [idParam],
      get: { operationId: `read_${noun}`, responses: ok },
      delete: { operationId: `delete_${noun}`, responses: ok },
    },
  });
  return {
    openapi: "3.0.1",
    info: { title: "Shop", version: "1" },
    paths: {
      ...resource("products", {
        type: "object",
        required: ["description"],
        properties: { description: { type: "string", example: "Menu" } },
      }),
      ...resource("orders", {
        type: "object",
        properties: {
          paymentMethodId: { type: "integer", example: 1 },
          products: { type: "array", items: item("id") },
        },
      }),
      ...resource("carts", {
        type: "object",
        required: ["lines"],
        properties: {
          lines: { type: "array", items: { ...item("productId"), required: ["productId"] } },
        },
      }),
    },
  };
}

/** A running stand-in and the bodies it got. */
interface Stand {
  base: string;
  bodies: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/** Answers as the restaurant API does: every product an order or cart names must exist. */
function startServer(): Stand {
  const bodies = new Map<string, Record<string, unknown>>();
  const made = new Map<string, Set<number>>([["products", new Set()], ["orders", new Set()], [
    "carts",
    new Set(),
  ]]);
  let next = 40;
  const exists = (id: unknown) => made.get("products")!.has(Number(id));
  const refuse = (error: string) => Response.json({ error }, { status: 400 });
  const stand = serveStandIn(async (req) => {
    const [, noun, id] = new URL(req.url).pathname.split("/");
    const items = made.get(noun);
    if (!items) return refuse(`no ${noun}`);
    if (req.method === "POST" && id === undefined) {
      const got = await req.json();
      bodies.set(noun, got);
      const list = noun === "orders" ? got.products : noun === "carts" ? got.lines : undefined;
      const key = noun === "orders" ? "id" : "productId";
      if (noun !== "products") {
        if (!Array.isArray(list) || list.length === 0) return refuse(`"${noun}" needs its list`);
        if (!list.every((l) => exists(l?.[key]))) return refuse("a product does not exist");
      }
      items.add(++next);
      return Response.json({ id: next });
    }
    if (!items.has(Number(id))) return Response.json({ error: "not found" }, { status: 404 });
    if (req.method === "DELETE") items.delete(Number(id));
    return Response.json({ id: Number(id) });
  });
  return { ...stand, bodies };
}

Deno.test("convert openapi: a body's list of items of another create sends the ids that create made", async () => {
  const server = startServer();
  const { runs: [run], summary } = await convertAndRunSuite(document(), server);
  const order = server.bodies.get("orders");
  const cart = server.bodies.get("carts");
  // The list the document shows examples inside is sent, its id the product made, not `1`.
  assert.equal(order?.paymentMethodId, 1, JSON.stringify(order));
  assert.ok(Array.isArray(order?.products), JSON.stringify(order));
  const [line] = order.products as Record<string, unknown>[];
  assert.ok(Number(line.id) > 40, JSON.stringify(order));
  assert.equal(line.quantity, 1, JSON.stringify(order));
  // A member named for its noun in each item of a required list too.
  const [cartLine] = (cart?.lines ?? []) as Record<string, unknown>[];
  assert.ok(Number(cartLine?.productId) > 40, JSON.stringify(cart));
  assert.match(summary, /products\.\[\]\.id.*POST \/products/, summary);
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
