/**
 * `convert openapi` on a document that describes no answer: `@nestjs/swagger`
 * writes `201: {description: ""}` for a controller without `@ApiResponse`
 * types, as many NestJS and Express projects publish theirs (measured by
 * hand 2026-11-27, docs/real-servers.md). The create of `/articles` answers
 * the article, but the document does not say how, so `{slug}` of
 * `/articles/{slug}` was a placeholder var (`slug: string`) and every
 * operation on the item got 404. The create is still its producer: the
 * value is captured from its answer at run time, the first member named
 * for the parameter anywhere in it (an `…Id` also as `id`), shallowest and
 * in document order first. Widened to the class: `{id}` and `{articleId}`
 * from an answer nested one level down; a `Location` is still preferred
 * where the document declares one; a create that answers nothing (204)
 * gives nothing to search, and the parameter stays the user's to fill.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const said = { description: "" };
const body = (properties: Record<string, unknown>) => ({
  content: { "application/json": { schema: { type: "object", properties } } },
});
const text = { type: "string" };

/** Articles by slug, comments by id, tags by `tagId`: every answer undescribed. */
function undescribed(createdStatus = "201"): Record<string, unknown> {
  const param = (name: string) => [{ name, in: "path", required: true, schema: text }];
  const item = (name: string) => ({
    parameters: param(name),
    get: { responses: { "200": said } },
    put: { requestBody: body({ title: text }), responses: { "200": said } },
    delete: { responses: { "200": said } },
  });
  return {
    openapi: "3.0.0",
    info: { title: "Blog", version: "1" },
    paths: {
      "/articles": {
        post: { requestBody: body({ title: text }), responses: { [createdStatus]: said } },
      },
      "/articles/{slug}": item("slug"),
      "/comments": { post: { requestBody: body({ text }), responses: { "201": said } } },
      "/comments/{id}": item("id"),
      "/tags": { post: { requestBody: body({ label: text }), responses: { "201": said } } },
      "/tags/{tagId}": item("tagId"),
    },
  };
}

/** Makes each item with a fresh key, answered inside its collection's singular (`{article: …}`). */
function blogServer(seen: string[]) {
  const items = new Map<string, Record<string, unknown>>();
  let next = 41;
  return serveStandIn(async (req) => {
    const [, collection, key] = new URL(req.url).pathname.split("/");
    seen.push(`${req.method} /${collection}${key ? "/{key}" : ""}`);
    if (req.method === "POST" && !key) {
      const sent = await req.json().catch(() => ({}));
      const id = String(next++);
      const made = collection === "articles"
        ? { slug: `how-to-${id}`, id: Number(id), author: { id: 7, slug: "ann" }, ...sent }
        : { id, owner: { id: "7" }, ...sent };
      items.set(`${collection}/${made.slug ?? id}`, made);
      return Response.json({ [collection.replace(/s$/, "")]: made }, { status: 201 });
    }
    const found = items.get(`${collection}/${key}`);
    if (!found) return Response.json({ message: "Not Found" }, { status: 404 });
    if (req.method === "DELETE") items.delete(`${collection}/${key}`);
    return Response.json({ [collection.replace(/s$/, "")]: found });
  });
}

Deno.test("convert openapi: a parameter read from its create's answer the document does not describe, by its name", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(undescribed(), blogServer(seen));
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  for (const collection of ["articles", "comments", "tags"]) {
    for (const method of ["GET", "PUT", "DELETE"]) {
      assert.ok(
        seen.includes(`${method} /${collection}/{key}`),
        `${method} ${collection}: ${seen}`,
      );
    }
  }
  const text = [...flows.values()].join("\n");
  assert.match(text, /path: \$\.json\.\.\['slug'\]\n\s+first: true\n\s+optional: true/, text);
  assert.match(text, /path: \$\.json\.\.\['tagId','id'\]\n\s+first: true/, text);
  assert.doesNotMatch(summary, /Fill in/, summary);
  assert.match(
    summary,
    /\{slug\} of [^\n]*\$\.json\.\.\['slug'\] \(the first anywhere in its answer/,
  );
});

Deno.test("convert openapi: a create that answers nothing gives no value to search: the parameter is the user's", async () => {
  const seen: string[] = [];
  const { summary, flows } = await convertAndRunSuite(undescribed("204"), blogServer(seen));
  assert.match(summary, /vars\.slug \(path parameter slug/, summary);
  assert.doesNotMatch([...flows.values()].join("\n"), /\.\.\['slug'\]/);
});
