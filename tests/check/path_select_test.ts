import assert from "node:assert/strict";
import { baseValues, pathSelector } from "../../lib/check/path_select.ts";
import { compilePath } from "../../lib/expr/path.ts";
import type { Scope } from "../../lib/expr/template.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import "../support/engines.ts";

const scope: Scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
const response = new ReceivedResponse(
  200,
  { "content-type": "application/json" },
  JSON.stringify({ shop: { items: [{ tags: ["a", "b"] }, { tags: [] }, { tags: ["c"] }] } }),
);
const path = (source: string) => compilePath(source, "response");
/** A path under a group's `at`, rooted at the value it selected. */
const under = (source: string) => compilePath(source, "body");

Deno.test("a selector reads the response", () => {
  const got = pathSelector(response, scope)(path("$.json.shop.items[2].tags[0]"));
  assert.deepEqual({ found: got.found, value: got.value }, { found: true, value: "c" });
  assert.equal(pathSelector(response, scope)(path("$.json.shop.none")).found, false);
});

Deno.test("a chain of at paths gives each value it selects, labelled, in order", () => {
  const got = baseValues([path("$.json.shop.items[*]"), under("$.tags[*]")], response, scope);
  assert.ok("values" in got);
  assert.deepEqual(got.values, [
    { value: "a", label: "$.json.shop.items[*] value 1 of 3 › $.tags[*] value 1 of 2" },
    { value: "b", label: "$.json.shop.items[*] value 1 of 3 › $.tags[*] value 2 of 2" },
    { value: "c", label: "$.json.shop.items[*] value 3 of 3 › $.tags[*] value 1 of 1" },
  ]);
});

Deno.test("a singular at that matched nothing is missing; a wildcard over nothing is none", () => {
  assert.deepEqual(baseValues([path("$.json.shop.owner")], response, scope), {
    missing: "$.json.shop.owner matched nothing",
  });
  assert.deepEqual(baseValues([path("$.json.shop.items[1].tags[*]")], response, scope), {
    values: [],
  });
});
