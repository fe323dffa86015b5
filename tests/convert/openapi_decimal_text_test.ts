/**
 * `convert openapi` on a create whose required price is a decimal written as
 * text (`type: string, format: decimal`), as drf-spectacular documents
 * Django REST framework's `DecimalField`, with the pattern of its digits
 * (`^-?\d{0,3}(?:\.\d{0,2})?$` for five digits, two after the point). The
 * pattern's shortest text is the empty string, which it allows and the
 * server refuses ("A valid number is required."): the create answered 400
 * and every operation on what it makes was skipped. A text whose format is
 * a number's is a number's text (`1`), which the pattern still checks; one
 * of no such format is made as before. The stand-in on 127.0.0.1 answers as
 * DRF does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const PATTERN = "^-?\\d{0,3}(?:\\.\\d{0,2})?$";

function document(format: string) {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  return {
    openapi: "3.0.3",
    info: { title: "shop", version: "1.0.0" },
    paths: {
      "/api/items/": {
        post: {
          operationId: "items_create",
          requestBody: {
            required: true,
            ...json({
              type: "object",
              properties: {
                title: { type: "string", minLength: 1 },
                price: { type: "string", format, pattern: PATTERN },
              },
              required: ["title", "price"],
            }),
          },
          responses: {
            201: {
              description: "",
              ...json({
                type: "object",
                properties: {
                  id: { type: "integer", readOnly: true },
                  price: { type: "string", format },
                },
              }),
            },
          },
        },
      },
      "/api/items/{id}/": {
        get: {
          operationId: "items_retrieve",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: { 200: { description: "" } },
        },
      },
    },
  };
}

/** The stand-in: a price that is no number is refused, as DRF's `DecimalField` refuses it. */
function standIn(seen: string[]) {
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST") {
      const body = await req.json();
      if (!/^-?\d+(\.\d+)?$/.test(String(body.price))) {
        return Response.json({ price: ["A valid number is required."] }, { status: 400 });
      }
      return Response.json({ id: 7, price: body.price }, { status: 201 });
    }
    return Response.json({ id: 7 });
  });
}

for (const format of ["decimal", "double"]) {
  Deno.test(`convert openapi: a required ${format} written as text is sent a number's text`, async () => {
    const seen: string[] = [];
    const { runs } = await convertAndRunSuite(document(format), standIn(seen));
    assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
    assert.ok(seen.includes("GET /api/items/7/"), seen.join("\n"));
  });
}

Deno.test("convert openapi: a text of no number's format under that pattern is its shortest match", async () => {
  const { flows } = await convertAndRunSuite(document("money"), standIn([]), { runs: 0 });
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /price: ""/, flow);
});
