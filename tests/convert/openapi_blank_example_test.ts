/**
 * `convert openapi` on a Swagger 2.0 document whose body schemas carry a blank
 * form as their example: a Fastify shopping-list API (measured by hand) serves
 * `@fastify/swagger`'s document of `zod-to-json-schema` schemas with
 * `example: {namaKategori: ""}` and `{nama: "", catatan: "", idKategori: 0}`,
 * each member its type's empty value. Sent as given, each create was refused
 * 422 ("The Nama Kategori is required"), and its update and delete skipped.
 * Such an example shows the body's shape, not a value: the run makes the
 * value from the schema instead. An example holding a real value
 * (`{label: "urgent", weight: 0}`) is the author's and is still sent as
 * written. Run twice on one stand-in with `BASE_URL` alone.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const body = (ref: string) => [{ name: "body", in: "body", schema: { $ref: ref } }];
const created = { 200: { description: "Made", schema: { type: "object" } } };
const refused = { 422: { description: "Invalid" } };

function crud(noun: string, ref: string) {
  return {
    [`/api/${noun}/create`]: {
      post: { tags: [noun], parameters: body(ref), responses: { ...created, ...refused } },
    },
    [`/api/${noun}/`]: {
      get: { tags: [noun], responses: { 200: { description: "All" } } },
    },
    [`/api/${noun}/delete/{id}`]: {
      delete: {
        tags: [noun],
        parameters: [{ name: "id", in: "path", required: true, type: "number" }],
        responses: { 200: { description: "Gone" } },
      },
    },
  };
}

const document = {
  swagger: "2.0",
  info: { title: "shopping", version: "1" },
  consumes: ["application/json"],
  produces: ["application/json"],
  definitions: {
    category: {
      type: "object",
      required: ["name"],
      properties: { name: text, note: text },
      example: { name: "", note: "" },
    },
    tag: {
      type: "object",
      required: ["label", "weight"],
      properties: { label: text, weight: { type: "number" } },
      example: { label: "urgent", weight: 0 },
    },
  },
  paths: { ...crud("category", "#/definitions/category"), ...crud("tag", "#/definitions/tag") },
};

/** Refuses an empty name 422 and a tag other than the author's example; counts what it did. */
function standIn() {
  const items = new Map<number, unknown>();
  let next = 1;
  const counted = { made: 0, refused: 0, deleted: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      const sent = await req.json();
      const blank = path.includes("/category/") ? sent.name === "" : sent.label !== "urgent";
      if (blank) return counted.refused++, Response.json({ name: "required" }, { status: 422 });
      const id = next++;
      items.set(id, sent);
      return counted.made++, Response.json({ data: { id, ...sent } });
    }
    const id = /\/delete\/(\d+)$/.exec(path)?.[1];
    if (req.method === "DELETE" && id !== undefined && items.delete(Number(id))) {
      return counted.deleted++, Response.json({ ok: true });
    }
    if (req.method === "GET") return Response.json({ data: [...items.values()] });
    return Response.json({ error: "none" }, { status: 404 });
  });
  return { server, counted };
}

Deno.test("convert openapi: a blank form given as a body's example is filled from the schema", async () => {
  const { server, counted } = standIn();
  const { runs, summary, flows } = await convertAndRunSuite(document, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
  assert.deepEqual(counted, { made: 4, refused: 0, deleted: 4 }, summary);
  assert.match(flows.get("tag.yaml") ?? "", /label: urgent/, "the author's example is sent");
});
