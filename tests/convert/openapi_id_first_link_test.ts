/**
 * `convert openapi` on a document whose bodies name another collection's item
 * id first: a Fastify shopping-list API (measured by hand) creates an item
 * with `{nama, idKategori}` beside `POST /api/kategori/create`, and its table
 * holds `id_kategori` as a foreign key. `idKategori` was read as no item's
 * id (only a noun before `Id`/`_id` was: `kategoriId`), so the item create
 * sent `1`, which names no category of a fresh server, and was refused 500;
 * its update and delete were skipped. Names that put the id first (`idKategori`,
 * `id_kategori`, `IdCategoria`, common where the noun is not English) name
 * the noun after it, as `kategoriId` does: the id the noun's create answers.
 * Run twice on one stand-in with `BASE_URL` alone; camel and snake case.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const made = (properties: object) => ({
  200: {
    description: "Made",
    ...json({ type: "object", properties: { data: { type: "object", properties } } }),
  },
});

function document(member: string) {
  const category = { type: "object", required: ["nama"], properties: { nama: { type: "string" } } };
  const item = {
    type: "object",
    required: ["nama", member],
    properties: { nama: { type: "string" }, [member]: { type: "number" } },
  };
  const remove = (noun: string) => ({
    delete: {
      tags: [noun],
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
      responses: { 200: { description: "Gone" } },
    },
  });
  return {
    openapi: "3.0.3",
    info: { title: "shopping", version: "1" },
    paths: {
      "/api/kategori/create": {
        post: {
          tags: ["kategori"],
          requestBody: json(category),
          responses: made({ id: { type: "number" } }),
        },
      },
      "/api/kategori/delete/{id}": remove("kategori"),
      "/api/item/create": {
        post: {
          tags: ["item"],
          requestBody: json(item),
          responses: made({ id: { type: "number" }, [member]: { type: "number" } }),
        },
      },
      "/api/item/delete/{id}": remove("item"),
    },
  };
}

/** Categories and items with a foreign key: an item naming no category is refused 500. */
function standIn(member: string) {
  const categories = new Set<number>();
  const items = new Set<number>();
  let next = 100;
  const counted = { categories: 0, items: 0, refused: 0, deleted: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      const body = await req.json();
      const id = next++;
      if (path === "/api/kategori/create") {
        categories.add(id);
        return counted.categories++, Response.json({ data: { id, ...body } });
      }
      if (!categories.has(body[member])) {
        return counted.refused++, Response.json({ error: "foreign key" }, { status: 500 });
      }
      items.add(id);
      return counted.items++, Response.json({ data: { id, ...body } });
    }
    const id = Number(/\/delete\/(\d+)$/.exec(path)?.[1]);
    const from = path.startsWith("/api/item/") ? items : categories;
    if (req.method === "DELETE" && from.delete(id)) {
      return counted.deleted++, Response.json({ ok: true });
    }
    return Response.json({ error: "none" }, { status: 404 });
  });
  return { server, counted };
}

for (const member of ["idKategori", "id_kategori"]) {
  Deno.test(`convert openapi: ${member} of an item's create is the id the category's create answers`, async () => {
    const { server, counted } = standIn(member);
    const { runs, summary } = await convertAndRunSuite(document(member), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.equal(counted.refused, 0, summary);
    assert.equal(counted.items, 2, summary);
    assert.match(summary, new RegExp(`${member}.*POST /api/kategori/create`), summary);
  });
}
