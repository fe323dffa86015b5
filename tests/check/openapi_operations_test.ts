import assert from "node:assert/strict";
import { matchOperation, operationsOf, responseKey } from "../../lib/check/openapi_operations.ts";

const DOC = {
  servers: [{ url: "https://api.example.test/v2/" }, { url: "/" }],
  paths: {
    "/items/{id}": { get: {}, delete: {} },
    "/items/new": { get: {} },
    "/items/{id}.{format}": { get: {} },
    "/files/{path}": { get: {} },
    "/users/{id}": { parameters: [], get: { responses: { "200": {}, default: {} } } },
    "/constructor": { constructor: {} },
    "/null": null,
  },
};

Deno.test("the template with most literal text wins, per method", () => {
  const template = (method: string, url: string) => {
    const got = matchOperation(DOC, method, url);
    return "template" in got ? got.template : `none ${got.path}`;
  };
  assert.equal(template("GET", "http://h/v2/items/new"), "/items/new");
  assert.equal(template("GET", "http://h/v2/items/7"), "/items/{id}");
  assert.equal(template("GET", "http://h/v2/items/7.json"), "/items/{id}.{format}");
  // Only operations of the method count: /items/new has no DELETE, /items/{id} has.
  assert.equal(template("DELETE", "http://h/v2/items/new"), "/items/{id}");
  assert.equal(template("POST", "http://h/v2/items/7"), "none /items/7");
  // Without the base path, the second server ("/") serves.
  assert.equal(template("GET", "http://h/users/3"), "/users/{id}");
  assert.equal(template("GET", "http://h/v2/items/"), "none /items/");
  assert.equal(template("CONSTRUCTOR", "http://h/constructor"), "none /constructor");
});

Deno.test("every operation is listed in document order with its response keys", () => {
  assert.deepEqual(
    operationsOf(DOC).map((o) => `${o.method} ${o.template} [${o.statuses}]`),
    [
      "GET /items/{id} []",
      "DELETE /items/{id} []",
      "GET /items/new []",
      "GET /items/{id}.{format} []",
      "GET /files/{path} []",
      "GET /users/{id} [200,default]",
    ],
  );
  assert.deepEqual(operationsOf({ paths: [] }), []);
  assert.deepEqual(operationsOf(null), []);
});

Deno.test("a status finds its exact key, then its class, then default", () => {
  assert.equal(responseKey(["2XX", "201"], 201), "201");
  assert.equal(responseKey(["2XX", "default"], 204), "2XX");
  assert.equal(responseKey(["2xx"], 204), "2xx");
  assert.equal(responseKey(["default"], 503), "default");
  assert.equal(responseKey(["200"], 404), undefined);
});

Deno.test("a template of many parameters in one segment matches in linear time", () => {
  const params = Array.from({ length: 200 }, (_, i) => `{p${i}}-`).join("");
  const doc = { paths: { [`/x/${params}end`]: { get: {} } } };
  // A regular expression of 200 groups would backtrack on this path for ages.
  const got = matchOperation(doc, "GET", `http://h/x/${"a-".repeat(20_000)}nd`);
  assert.ok("path" in got);
  const hit = matchOperation(doc, "GET", `http://h/x/${"a-".repeat(200)}end`);
  assert.ok("template" in hit);
});

Deno.test("a server URL's variables take their defaults, and a Swagger 2.0 basePath is a base", () => {
  const templated = {
    servers: [{
      url: "https://{region}.api.test/{version}",
      variables: { region: { default: "eu" }, version: { default: "v3" } },
    }],
    paths: { "/items": { get: {} } },
  };
  const got = matchOperation(templated, "GET", "http://127.0.0.1:8080/v3/items");
  assert.ok("template" in got && got.template === "/items", JSON.stringify(got));
  const swagger = { swagger: "2.0", basePath: "/api", paths: { "/items": { get: {} } } };
  const old = matchOperation(swagger, "GET", "http://127.0.0.1:8080/api/items");
  assert.ok("template" in old && old.template === "/items", JSON.stringify(old));
});
