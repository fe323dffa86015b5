/**
 * `convert openapi`: an update sends the UUIDs its item already holds, as
 * the item's create or its read answered them, not the document's example
 * of them. Found on a hapi + PostgreSQL API with a hand-written YAML
 * document measured by hand: every schema gives its `id` and its parent's
 * `orgId` the same example UUID (a row of the authors' database), and the
 * update of an organization, of a product and of the signed-in account sent
 * that UUID, so the server changed the item's key or pointed the product at
 * an organization that does not exist: 500 (foreign keys refused). A UUID
 * is no value a client picks to mean something; the one an update can send
 * without changing what it does not mean to is the one the item holds.
 *
 * The stand-in below refuses, with 500 as the real one does, an update whose
 * body renames the item's key or names a warehouse it does not know.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, json, text } from "../support/openapi_doc_parts.ts";

/** The example every schema gives its UUIDs: a row of the authors' own database. */
const AUTHORS_ROW = "0d3c5a7e-91b2-4c4f-8e6a-2f1b9c7d5e30";
/** The warehouse the stand-in starts with, the path parameter's example. */
const SEEDED = "6a1f0c2e-7b3d-4e58-9c1a-d4e2f3b5a687";
/** The signed-in account's own id. */
const ACCOUNT = "b7e4d2c1-3f5a-4a6b-8c9d-0e1f2a3b4c5d";

const uuidText = { type: "string", example: AUTHORS_ROW };
const warehouse = {
  type: "object",
  required: ["label"],
  properties: { id: uuidText, label: { type: "string", example: "North dock" } },
};
const bin = {
  type: "object",
  required: ["warehouseId", "label"],
  properties: {
    id: uuidText,
    warehouseId: uuidText,
    label: { type: "string", example: "Shelf A" },
  },
};
const profile = {
  type: "object",
  required: ["displayName"],
  properties: { id: uuidText, displayName: { type: "string", example: "Ada" } },
};
const warehouseId = {
  name: "warehouseId",
  in: "path",
  required: true,
  schema: { type: "string", example: SEEDED },
};
const binId = { name: "binId", in: "path", required: true, schema: text };
const sends = (schema: unknown) => ({ required: true, content: json(schema) });

const document = {
  openapi: "3.0.0",
  info: { title: "Depot", version: "1" },
  paths: {
    "/warehouses/{warehouseId}": {
      get: { parameters: [warehouseId], responses: answers(warehouse) },
      patch: {
        parameters: [warehouseId],
        requestBody: sends(warehouse),
        responses: answers(warehouse),
      },
    },
    "/warehouses/{warehouseId}/bins": {
      post: { parameters: [warehouseId], requestBody: sends(bin), responses: answers(bin) },
    },
    "/warehouses/{warehouseId}/bins/{binId}": {
      get: { parameters: [warehouseId, binId], responses: answers(bin) },
      patch: {
        parameters: [warehouseId, binId],
        requestBody: sends(bin),
        responses: answers(bin),
      },
    },
    "/profile": {
      get: { responses: answers(profile) },
      patch: { requestBody: sends(profile), responses: answers(profile) },
    },
  },
};

type Row = Record<string, unknown> & { id: string };

/** One warehouse and one account; bins made under the warehouse the path names. */
function depot() {
  const warehouses: Row[] = [{ id: SEEDED, label: "Main" }];
  const bins: Row[] = [];
  const account: Row = { id: ACCOUNT, displayName: "Owner" };
  const refused = (why: string) => Response.json({ error: why }, { status: 500 });
  /** Applies `sent` to `row` as a database would: a new key or an unknown warehouse is refused. */
  const update = (row: Row, sent: Record<string, unknown>) => {
    if (sent.id !== undefined && sent.id !== row.id) return refused("key is referenced");
    const parent = sent.warehouseId;
    if (parent !== undefined && !warehouses.some((w) => w.id === parent)) {
      return refused("no such warehouse");
    }
    Object.assign(row, sent);
    return Response.json(row);
  };
  return serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    const sent = req.method === "GET" ? {} : await req.json();
    if (parts[0] === "profile") {
      return req.method === "GET" ? Response.json(account) : update(account, sent);
    }
    const house = warehouses.find((w) => w.id === parts[1]);
    if (!house) return Response.json({ error: "not found" }, { status: 404 });
    if (parts.length === 2) {
      return req.method === "GET" ? Response.json(house) : update(house, sent);
    }
    if (parts.length === 3) {
      const made = { ...sent, id: crypto.randomUUID(), warehouseId: house.id };
      bins.push(made);
      return Response.json(made);
    }
    const found = bins.find((b) => b.id === parts[3]);
    if (!found) return Response.json({ error: "not found" }, { status: 404 });
    return req.method === "GET" ? Response.json(found) : update(found, sent);
  });
}

Deno.test("an update sends the UUIDs its item holds, from its create or its read, not the example", async () => {
  const { runs, summary } = await convertAndRunSuite(document, depot(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(
    summary,
    /warehouseId of PATCH \/warehouses\/\{warehouseId\}\/bins\/\{binId\} ← POST /,
  );
  assert.match(
    summary,
    /id of PATCH \/warehouses\/\{warehouseId\} ← GET \/warehouses\/\{warehouseId\}/,
  );
  assert.match(summary, /id of PATCH \/profile ← GET \/profile/);
});
