/**
 * `convert openapi` on a create whose answer the document leaves
 * undescribed (`@nestjs/swagger`'s `201: {description: ""}`) at a
 * collection whose singular ends in "ie": a NestJS movies API's
 * `POST /api/movies`. The item's id is searched for as `id` and as the
 * noun's own `…Id`, which was spelled `movyId` (the "-ies" → "-y" rule of
 * `categories`), so an answer naming it `movieId` gave nothing and the
 * item's read was skipped. The noun is now the singular step names use
 * (`names.ts`), one rule for both; and one ending is cut, so `statuses`
 * gives `statusId` where it gave "statuId". The stand-in runs on 127.0.0.1
 * and the suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { nounIds } from "../../lib/convert/openapi/noun_id.ts";

const text = { type: "string" };
const made = { 201: { description: "" } };
const read = { 200: { description: "" } };

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "films", version: "1" },
  paths: {
    "/api/movies": {
      post: {
        tags: ["movies"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", required: ["title"], properties: { title: text } },
            },
          },
        },
        responses: made,
      },
    },
    "/api/movies/{id}": {
      get: {
        tags: ["movies"],
        parameters: [{ name: "id", in: "path", required: true, schema: text }],
        responses: read,
      },
    },
  },
};

Deno.test("convert openapi: an undescribed create at /movies is searched for movieId, the noun's own id", async () => {
  const movies = new Map<string, string>();
  const reads: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/movies") {
      const body = await req.json();
      const id = `m${movies.size + 1}`;
      movies.set(id, body.title);
      // The item's id under its noun's name, no bare `id`.
      return Response.json({ message: "Movie added", movieId: id }, { status: 201 });
    }
    const id = /^\/api\/movies\/([^/]+)$/.exec(path)?.[1];
    if (req.method === "GET" && id !== undefined && movies.has(id)) {
      reads.push(id);
      return Response.json({ title: movies.get(id) });
    }
    return Response.json({ message: "not found" }, { status: 404 });
  });
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  assert.match(summary, /'movieId','movie_id'/, summary);
  assert.deepEqual(reads, ["m1", "m2"], runs.map((r) => r.stdout).join("\n"));
  for (const run of runs) assert.equal(run.code, 0, run.stdout);
});

Deno.test("nounIds: the singular of step names, 'ie' words and the rest as before", () => {
  assert.deepEqual(nounIds("/movies", "id"), ["movieId", "movie_id"]);
  assert.deepEqual(nounIds("/api/cookies", "id"), ["cookieId", "cookie_id"]);
  assert.deepEqual(nounIds("/Movies", "id"), ["MovieId", "Movie_id"]);
  assert.deepEqual(nounIds("/series", "id"), ["seriesId", "series_id"]);
  // One ending cut: "-es" after s, x, ch or sh, and no "-s" after it (was "statuId", "buId").
  assert.deepEqual(nounIds("/categories", "id"), ["categoryId", "category_id"]);
  assert.deepEqual(nounIds("/statuses", "id"), ["statusId", "status_id"]);
  assert.deepEqual(nounIds("/buses", "id"), ["busId", "bus_id"]);
  assert.deepEqual(nounIds("/indexes", "id"), ["indexId", "index_id"]);
});
