/**
 * `convert openapi` on a document whose collections end in a slash.
 * postgres-meta 0.99.0's own document (Fastify's `@fastify/swagger`,
 * measured by hand 2026-11-29, docs/real-servers.md) lists views at
 * `GET /views/` (an array of `{id, …}`) and reads one at `/views/{id}`;
 * nothing creates a view. The listing is where such an id is found (the
 * first item, listing_values.ts), but the slash made `/views/` look like
 * another collection's listing, whose array must be named for it: the
 * converter asked for `vars.id` (`1`) and the read answered 404. A slash
 * at the end of a path names the same collection. Widened to the class: a
 * read of `/indexes/{id}/` (Django REST framework's slashes on both), and a
 * listing inside an envelope named for its collection.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const id = { type: "integer" };
const listOf = (schema: unknown) => ({
  responses: {
    "200": { description: "Default Response", content: { "application/json": { schema } } },
  },
});
const items = {
  type: "array",
  items: { type: "object", properties: { id, name: { type: "string" } } },
};
const read = {
  parameters: [{ name: "id", in: "path", required: true, schema: id }],
  get: { responses: { "200": { description: "Default Response" } } },
};

/** Views, indexes and triggers the server holds already: listed, read by id, never created. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Catalog", version: "1" },
    paths: {
      "/views/": { get: listOf(items) },
      "/views/{id}": read,
      "/indexes/": { get: listOf(items) },
      "/indexes/{id}/": read,
      "/triggers/": { get: listOf({ type: "object", properties: { triggers: items } }) },
      "/triggers/{id}": read,
    },
  };
}

/** Holds items of large ids (a database's object ids), as a running instance does. */
function catalogServer(seen: string[]) {
  const held = new Map([["views", 16390], ["indexes", 2601], ["triggers", 16402]]);
  return serveStandIn((req) => {
    const [collection, key] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    const own = held.get(collection);
    if (!key) {
      const list = [{ id: own, name: `${collection}_a` }];
      return Response.json(collection === "triggers" ? { triggers: list } : list);
    }
    const found = Number(key) === own;
    seen.push(`GET /${collection}/{id} ${found ? 200 : 404}`);
    return found
      ? Response.json({ id: own, name: `${collection}_a` })
      : Response.json({ error: `Cannot find ${collection} with ID ${key}` }, { status: 404 });
  });
}

Deno.test("convert openapi: a collection written with a slash at its end is the listing its items' ids are read from", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document(), catalogServer(seen));
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}\n${seen.join("\n")}`);
  assert.doesNotMatch(summary, /Fill in/, summary);
  for (const collection of ["views", "indexes", "triggers"]) {
    assert.ok(seen.includes(`GET /${collection}/{id} 200`), `${collection}: ${seen}`);
  }
  assert.match(summary, /\{id\} of GET \/views\/\{id\} ← GET \/views\/ \$\.json\[0\]\.id/, summary);
});
