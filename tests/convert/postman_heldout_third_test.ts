/**
 * The third held-out round of `convert postman` (tests/fixtures/postman/README.md):
 * collections the converter was not built from. Contentstack's Content
 * Management API collection writes its URLs as objects with no `raw`, the
 * path as text with a leading slash, which was sent as `//v3/user`.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";

const SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman held out: a URL object's text path is read as Postman reads it", () => {
  const request = (path: unknown) => ({
    method: "GET",
    header: [{ key: "authtoken", value: "{{authtoken}}" }],
    url: { protocol: "https", host: "{{base_url}}", path, query: [] },
  });
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Content Management API", schema: SCHEMA },
    item: [
      { name: "Get user", request: request("/v3/user") },
      { name: "Root", request: request("/") },
      { name: "Segments", request: request(["v3", "stacks"]) },
      { name: "Plain", request: request("v3/content_types") },
    ],
  }));
  const text = files[0].text;
  const urls = [...text.matchAll(/url: (.*)/g)].map((m) => m[1]);
  assert.deepEqual(urls, [
    "https://${ENV.BASE_URL}/v3/user",
    "https://${ENV.BASE_URL}/",
    "https://${ENV.BASE_URL}/v3/stacks",
    "https://${ENV.BASE_URL}/v3/content_types",
  ]);
  assert.deepEqual(loadFlow(text, files[0].path, { env: () => "api.test" }).problems, []);
});
