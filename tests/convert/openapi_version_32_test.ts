/**
 * convert openapi (issue 52): an OpenAPI 3.2 document converts as a 3.1 one
 * does (3.2 keeps 3.1's JSON Schema and adds to it). Express-Zod-API's
 * example writes `openapi: 3.2.0`; measured by hand, it was refused whole
 * (0 operations), then 13 of 17 answered 2xx. A later major stays refused.
 */
import assert from "node:assert/strict";
import { checkDocument } from "../../lib/convert/openapi/document.ts";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";

/** A 3.2 document: a query parameter with a pattern, a create answering 201, a list. */
function document(version: string) {
  return {
    openapi: version,
    info: { title: "Users", version: "1" },
    servers: [{ url: "https://example.com" }],
    paths: {
      "/v1/user/retrieve": {
        get: {
          tags: ["users"],
          parameters: [{
            name: "id",
            in: "query",
            required: true,
            schema: { type: "string", pattern: "\\d+" },
          }],
          responses: { "200": { description: "ok" } },
        },
      },
      "/v1/user/create": {
        post: {
          tags: ["users"],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["name"],
                  properties: { name: { type: "string" } },
                },
              },
            },
          },
          responses: { "201": { description: "created" } },
        },
      },
    },
  };
}

Deno.test("an OpenAPI 3.2 document converts into flows that load", async () => {
  checkDocument(document("3.2.0"), "api.yaml");
  const { files } = convertOpenApi({ document: document("3.2.0"), source: "api.yaml" });
  assert.equal(files.length, 1);
  const text = files[0].text;
  assert.match(text, /url: \$\{ENV\.BASE_URL\}\/v1\/user\/retrieve/);
  assert.match(text, /url: \$\{ENV\.BASE_URL\}\/v1\/user\/create/);
  await loadFlow(text, "users.yaml");
});

Deno.test("a later major version stays refused, naming the versions read", () => {
  assert.throws(
    () => checkDocument(document("4.0.0"), "api.yaml"),
    /is not an OpenAPI 3\.0, 3\.1 or 3\.2 document: its "openapi" field is "4\.0\.0"/,
  );
});
