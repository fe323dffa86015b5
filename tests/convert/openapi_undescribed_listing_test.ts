/**
 * `convert openapi` on a listing the document leaves undescribed, of items
 * nothing in the API creates. postgres-meta 0.99.0's own document (measured
 * by hand 2026-11-29, docs/real-servers.md) writes `GET /indexes/` and `GET
 * /indexes/{id}` as `200: {description: "Default Response"}`: with no
 * schema to read the listing's items from, the converter asked for the id
 * (`vars.id: string`) and the read answered 404. The listing is still where
 * such an item is found: the value is read from its answer at run time, the
 * first member named for the parameter anywhere in it (an `…Id` also as
 * `id`), as from a create's undescribed answer (undescribed_answer.ts), and
 * optional: an empty list (a fresh instance) passes and the read is skipped.
 * Widened to the class: a list inside an envelope, a `{roleId}` listed as
 * `id`, and an empty listing; a handle a person names (`{category}`) stays
 * theirs to fill in, as no member is known to hold it. Reads only: a write of the first listed item
 * would change anyone's (own_listed.ts), so its parameter stays the user's.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const said = { description: "Default Response" };
const text = { type: "string" };

/** An item path of `param` read (and for `/roles`, renamed) with undescribed answers. */
function item(param: string, write = false) {
  return {
    parameters: [{ name: param, in: "path", required: true, schema: text }],
    get: { responses: { "200": said } },
    ...(write ? { patch: { responses: { "200": said } } } : {}),
  };
}

/** Indexes, roles and locks the server holds already; listed and read, never created. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Catalog", version: "1" },
    paths: {
      "/indexes/": { get: { responses: { "200": said } } },
      "/indexes/{id}": item("id"),
      "/roles": { get: { responses: { "200": said } } },
      "/roles/{roleId}": item("roleId", true),
      "/locks/": { get: { responses: { "200": said } } },
      "/locks/{id}": item("id"),
      "/categories": { get: { responses: { "200": said } } },
      "/categories/{category}": item("category"),
    },
  };
}

/** Lists `indexes` at the top, `roles` inside `{roles: […]}`, and no lock at all. */
function catalogServer(seen: string[]) {
  const held = new Map([["indexes", "2601"], ["roles", "10"]]);
  return serveStandIn((req) => {
    const [collection, key] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    const own = held.get(collection);
    if (!key) {
      const list = own ? [{ id: Number(own), name: `${collection}_a`, owner: { id: 99 } }] : [];
      return Response.json(collection === "roles" ? { total: 1, roles: list } : list);
    }
    const found = key === own;
    seen.push(`${req.method} /${collection}/{id} ${found ? 200 : 404}`);
    return found
      ? Response.json({ id: Number(own), name: `${collection}_a` })
      : Response.json({ error: `Cannot find ${collection} with ID ${key}` }, { status: 404 });
  });
}

Deno.test("convert openapi: an item nothing creates is read from its listing's undescribed answer, by its name", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), catalogServer(seen));
  const [run] = runs;
  const steps = [...flows.values()].join("\n");
  // The roles' PATCH of anyone's role, and a category, stay the user's to name: only they fail.
  assert.match(
    summary,
    /vars\.roleId \(path parameter roleId of PATCH \/roles\/\{roleId\}/,
    summary,
  );
  assert.match(summary, /vars\.category \(path parameter category of GET \/categories/, summary);
  assert.match(run.stdout, /2 failed/, run.stdout);
  for (const collection of ["indexes", "roles"]) {
    assert.ok(seen.includes(`GET /${collection}/{id} 200`), `${collection}: ${seen}\n${steps}`);
  }
  // No lock exists: the listing passes, and the read is skipped rather than sent.
  assert.ok(!seen.some((s) => s.startsWith("GET /locks/")), seen.join());
  assert.match(summary, /\{id\} of GET \/indexes\/\{id\} ← GET \/indexes\/ \$\.json\.\.\['id'\]/);
  assert.match(
    summary,
    /\{roleId\} of GET \/roles\/\{roleId\} ← GET \/roles \$\.json\.\.\['roleId','id'\]/,
  );
});
