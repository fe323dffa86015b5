/**
 * `convert openapi`: a text parameter whose description is nothing but the
 * values it takes, bare words joined by "or" ("item or kategori", "asc,
 * desc or none"), takes the first of them. A Fastify shopping-list API
 * (measured by hand) documents its report `GET /api/listItem/?nama` so, with
 * no `enum` and no example; the generated text was answered 404 ("not
 * found"). Words that say more than the values ("Name of the item or
 * category") list none, and a value is made as before.
 *
 * The stand-in below refuses other values, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const query = (name: string, description: string) => ({
  name,
  in: "query",
  required: true,
  description,
  schema: { type: "string" },
});

const document = {
  openapi: "3.0.3",
  info: { title: "shopping", version: "1" },
  paths: {
    "/api/report": {
      get: {
        parameters: [
          query("nama", "item or kategori"),
          query("order", "asc, desc or none."),
          query("label", "Name of the item or category"),
        ],
        responses: { "200": { description: "Shares" } },
      },
    },
  },
};

Deno.test("convert openapi: a description that is only its values in words gives the first", async () => {
  const sent: Record<string, string | null>[] = [];
  const server = serveStandIn((req) => {
    const url = new URL(req.url);
    const got = Object.fromEntries(
      ["nama", "order", "label"].map((k) => [k, url.searchParams.get(k)]),
    );
    sent.push(got);
    if (!["item", "kategori"].includes(got.nama ?? "") || got.order !== "asc") {
      return Response.json({ message: "not found" }, { status: 404 });
    }
    return Response.json([]);
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].nama, "item");
  assert.notEqual(sent[0].label, "Name", "words saying more than the values list none");
});
