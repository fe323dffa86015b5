/**
 * `convert openapi`: a PUT that is its item's only update and whose schema
 * requires nothing sends what the item's create requires. Found on an
 * e-commerce API measured by hand (docs/real-servers.md): `PUT
 * /products/{id}` takes `{name?, description?, price?, stock?}`, its server
 * writes every column (`UPDATE … SET name=$1, price=$2, …`), and the PUT was
 * sent `{name}` alone (500 "null value in column price"). The item's create
 * requires `name`, `price` and `stock`: the PUT now sends those too, at the
 * create's values. The evidence is the document's: the create's `required`,
 * beside a PUT with no PATCH that requires nothing. A PUT whose schema
 * requires something is the document's word and is sent as before; a
 * member the document marks read-only, or a key a path names the item by,
 * is never sent.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };
const code = { name: "code", in: "path", required: true, schema: { type: "string" } };

/** Products (an id the server gives), and coupons (a code the client gives, the path's key). */
function document() {
  const product = {
    name: { type: "string" },
    description: { type: "string" },
    price: { type: "number" },
    stock: { type: "integer" },
    created: { type: "string", readOnly: true },
  };
  const coupon = {
    code: { type: "string" },
    percent: { type: "integer" },
    note: { type: "string" },
  };
  const created = { description: "Created", ...json({ type: "object", properties: { id: {} } }) };
  return {
    openapi: "3.0.3",
    info: { title: "Shop", version: "1" },
    paths: {
      "/products": {
        post: {
          operationId: "createProduct",
          requestBody: json({
            type: "object",
            required: ["name", "price", "stock", "created"],
            properties: product,
          }),
          responses: { "201": created },
        },
      },
      "/products/{id}": {
        put: {
          operationId: "updateProduct",
          parameters: [id],
          requestBody: json({ type: "object", properties: product }),
          responses: { "200": { description: "Updated" } },
        },
        delete: {
          operationId: "deleteProduct",
          parameters: [id],
          responses: { "204": { description: "Deleted" } },
        },
      },
      "/coupons": {
        post: {
          operationId: "createCoupon",
          requestBody: json({ type: "object", required: ["code", "percent"], properties: coupon }),
          responses: { "201": { description: "Created" } },
        },
      },
      "/coupons/{code}": {
        put: {
          operationId: "updateCoupon",
          parameters: [code],
          requestBody: json({ type: "object", properties: coupon }),
          responses: { "200": { description: "Updated" } },
        },
      },
    },
  };
}

/** Sets every column on an update, as an SQL `UPDATE … SET` of each does: a missing one is null. */
function startServer() {
  const products = new Map<number, Record<string, unknown>>();
  const coupons = new Map<string, Record<string, unknown>>();
  const puts: Record<string, unknown>[] = [];
  let next = 1;
  const nullIn = (row: Record<string, unknown>, columns: string[]) =>
    columns.find((c) => row[c] === undefined || row[c] === null);
  const refuse = (column: string) =>
    Response.json({ error: `null value in column "${column}"` }, { status: 500 });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" || req.method === "PUT" ? await req.json() : {};
    if (req.method === "PUT") puts.push(body);
    if (req.method === "POST" && path === "/products") {
      const missing = nullIn(body, ["name", "price", "stock"]);
      if (missing) return refuse(missing);
      products.set(next, body);
      return Response.json({ id: next++ }, { status: 201 });
    }
    const product = Number(/^\/products\/(\d+)$/.exec(path)?.[1]);
    if (req.method === "PUT" && products.has(product)) {
      if ("created" in body) {
        return Response.json({ error: "created is read-only" }, { status: 400 });
      }
      const row = { name: body.name, price: body.price, stock: body.stock };
      const missing = nullIn(row, ["name", "price", "stock"]);
      if (missing) return refuse(missing);
      products.set(product, row);
      return Response.json(row);
    }
    if (req.method === "DELETE" && products.delete(product)) {
      return new Response(null, { status: 204 });
    }
    if (req.method === "POST" && path === "/coupons") {
      const missing = nullIn(body, ["code", "percent"]);
      if (missing) return refuse(missing);
      coupons.set(body.code, body);
      return new Response(null, { status: 201 });
    }
    const coupon = decodeURIComponent(/^\/coupons\/(.+)$/.exec(path)?.[1] ?? "");
    if (req.method === "PUT" && coupons.has(coupon)) {
      // The key is the path's: a body naming it anew would rename the coupon.
      if ("code" in body) return Response.json({ error: "code is the key" }, { status: 400 });
      const missing = nullIn(body, ["percent"]);
      if (missing) return refuse(missing);
      coupons.set(coupon, { code: coupon, ...body });
      return Response.json({ code: coupon });
    }
    return Response.json({ error: "Not found" }, { status: 404 });
  });
  return { ...stand, puts };
}

Deno.test("convert openapi: an item's only update that requires nothing sends what its create requires", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(server.puts.length, 4, JSON.stringify(server.puts));
  const all = [...flows.values()].join("\n");
  // The create's values, not a value of the update's own.
  assert.match(all, /method: PUT\n.*\n\s+body:\n(\s+\w+: .*\n)*\s+price: 1\n/, all);
});
