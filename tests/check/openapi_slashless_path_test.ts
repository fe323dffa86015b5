/**
 * A path the document writes without its leading slash is the path with
 * it: Elysia's generator wrote a route mounted at the root as `""`, and the
 * converted step that requested `/` was counted by the run's coverage as
 * "not exercised: GET " beside "no operation serves: GET /". The same holds
 * for a template such as `items/{id}`, and for `openapi:` checks, which
 * find their operation the same way.
 */
import assert from "node:assert/strict";
import { matchOperation } from "../../lib/check/openapi_operations.ts";

const DOC = {
  paths: {
    "": { get: {} },
    "items/{id}": { get: {} },
    "/items/new": { get: {} },
  },
};

const template = (method: string, url: string) => {
  const got = matchOperation(DOC, method, url);
  return "template" in got ? got.template : `none ${got.path}`;
};

Deno.test("a path written without its leading slash serves the path with it", () => {
  assert.equal(template("GET", "http://h/"), "");
  assert.equal(template("GET", "http://h"), "");
  assert.equal(template("GET", "http://h/items/7"), "items/{id}");
  // A literal template still wins over a parameter's, written either way.
  assert.equal(template("GET", "http://h/items/new"), "/items/new");
  assert.equal(template("POST", "http://h/"), "none /");
  assert.equal(template("GET", "http://h/other"), "none /other");
});
