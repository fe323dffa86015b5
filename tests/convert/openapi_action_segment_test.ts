/**
 * `convert openapi` on a document whose items are acted on under a word after
 * their collection's noun: `PUT /orders/cancel/{id}` and
 * `PUT /orders/process/{id}` beside `POST /orders` and `DELETE /orders/{id}`
 * (a NestJS products catalog, 2023). Before, the word was read as a
 * collection of its own that nothing creates, so each PUT was taken for a
 * create at a URL the client names: the run sent `id-<random>`, which the
 * server refused (500 from its database, a uuid column), and ran it before
 * the order existed. The document's evidence says otherwise: no operation is
 * on `/orders/cancel` (no listing, no create: no collection there), the PUT is
 * alone on its path (an action, not an item read and written), and `/orders`
 * is a collection a POST creates: `{id}` is an order, the id the create
 * answers, acted on after the create and before the delete.
 *
 * The stand-in runs on 127.0.0.1, makes uuid ids and answers 500 for an id
 * that is not one, 400 for an order it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const idParam = [{ name: "id", required: true, in: "path", schema: { type: "string" } }];
const action = (method: string) => ({
  [method]: { parameters: idParam, responses: { "200": { description: "" } } },
});

const document = {
  openapi: "3.0.0",
  info: { title: "Orders", version: "1.0" },
  paths: {
    "/orders": {
      get: { responses: { "200": { description: "" } } },
      post: {
        requestBody: json({
          type: "object",
          properties: { note: { type: "string" } },
          required: ["note"],
        }),
        // As `@nestjs/swagger` writes a create whose answer it was not told: no schema.
        responses: { "201": { description: "" } },
      },
    },
    "/orders/cancel/{id}": action("put"),
    "/orders/process/{id}": action("put"),
    "/orders/receipt/{id}": action("get"),
    "/orders/{id}": action("delete"),
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Orders in memory: an id that is no uuid is 500 (the database's), one not held 400. */
function standIn(seen: string[]) {
  const orders = new Map<string, { id: string; note: string; canceled: boolean }>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (pathname === "/orders") {
      if (req.method === "GET") return Response.json([...orders.values()]);
      const { note } = await req.json();
      const made = { id: crypto.randomUUID(), note, canceled: false };
      orders.set(made.id, made);
      return Response.json(made, { status: 201 });
    }
    const id = pathname.split("/").at(-1) ?? "";
    if (!UUID.test(id)) {
      return Response.json({ statusCode: 500, message: "Internal server error" }, { status: 500 });
    }
    const held = orders.get(id);
    if (!held) return Response.json({ message: "Order not found" }, { status: 400 });
    if (req.method === "DELETE") orders.delete(id);
    if (pathname.startsWith("/orders/cancel/")) held.canceled = true;
    return Response.json(held);
  });
}

Deno.test("convert openapi: an item acted on under a word is its collection's create's", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document, standIn(seen));
  for (const path of ["cancel", "process"]) {
    assert.match(summary, new RegExp(`\\{id\\} of PUT /orders/${path}/\\{id\\} ← POST /orders `));
  }
  assert.match(summary, /\{id\} of GET \/orders\/receipt\/\{id\} ← POST \/orders /);
  const flow = [...flows.values()].join("\n");
  assert.doesNotMatch(flow, /the client names what/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
  // Each action after the create, the delete last.
  const created = seen.indexOf("POST /orders");
  const removed = seen.findIndex((s) => s.startsWith("DELETE /orders/"));
  for (const path of ["/orders/cancel/", "/orders/process/", "/orders/receipt/"]) {
    const at = seen.findIndex((s) => s.includes(path));
    assert.ok(created < at && at < removed, seen.join(", "));
  }
});

Deno.test("convert openapi: a word with operations of its own, an item read and written, another parameter: its own", () => {
  const ops = operationsOf({
    paths: {
      "/orders": { post: {}, get: {} },
      "/orders/{id}": { get: {} },
      // A collection of its own under the noun: listed, so its items are its own.
      "/orders/drafts": { get: {} },
      "/orders/drafts/{id}": { put: {} },
      // An item the client names, read and written at its own URL: a create by PUT.
      "/orders/files/{name}": { put: {}, get: {} },
      // A parameter of another name than the collection's items': another thing (a column).
      "/charts": { post: {} },
      "/charts/{pk}": { get: {} },
      "/charts/related/{column_name}": { put: {} },
    },
  });
  const role = (method: string, template: string) =>
    ops.find((o) => o.method === method && o.template === template)?.role;
  assert.equal(role("PUT", "/orders/drafts/{id}"), "create");
  assert.equal(role("PUT", "/orders/files/{name}"), "create");
  assert.equal(role("PUT", "/charts/related/{column_name}"), "create");
});
