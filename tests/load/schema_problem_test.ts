/**
 * Schemas the validator compiles but that cannot be used: nested deeper
 * than the limit, or referring to themselves without descending into the
 * value (through $ref, $id, anchors, allOf, OpenAPI components). A schema
 * that recurses through a property or an item is fine.
 */
import assert from "node:assert/strict";
import { MAX_SCHEMA_DEPTH, schemaProblem } from "../../lib/load/schema_problem.ts";

Deno.test("a schema that refers to itself in place is named by its path", () => {
  assert.match(schemaProblem({ $ref: "#" }, "schema")!, /^the schema at # → # refers to itself/);
  assert.match(
    schemaProblem({
      $defs: { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { $ref: "#/$defs/a" } },
      $ref: "#/$defs/a",
    }, "schema")!,
    /#\/\$defs\/a → #\/\$defs\/a\/allOf\/0 → #\/\$defs\/b → #\/\$defs\/a/,
  );
  const anchor = { $defs: { n: { $anchor: "n", not: { $ref: "#n" } } }, $ref: "#n" };
  assert.ok(schemaProblem(anchor, "schema"));
  const byId = { $id: "https://x.test/s", anyOf: [{ $ref: "https://x.test/s" }] };
  assert.ok(schemaProblem(byId, "schema"));
});

Deno.test("recursion through a property or an item is fine", () => {
  const tree = {
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#" } }, child: { $ref: "#" } },
  };
  assert.equal(schemaProblem(tree, "schema"), undefined);
  assert.equal(schemaProblem({ $ref: "https://elsewhere.test/s" }, "schema"), undefined);
  assert.equal(schemaProblem(true, "schema"), undefined);
});

Deno.test("an OpenAPI document: response schemas and components, examples left out", () => {
  const doc = (item: unknown) => ({
    openapi: "3.0.3",
    paths: {
      "/a": {
        get: { responses: { "200": { content: { "application/json": { schema: item } } } } },
      },
    },
    components: { schemas: { Loop: { allOf: [{ $ref: "#/components/schemas/Loop" }] } } },
  });
  assert.match(schemaProblem(doc({ type: "object" }), "openapi")!, /#\/components\/schemas\/Loop/);
  const fine = {
    paths: {},
    components: { schemas: { A: { type: "string", example: { $ref: "#" } } } },
  };
  assert.equal(schemaProblem(fine, "openapi"), undefined);
});

Deno.test("nesting is measured without recursion, up to the limit", () => {
  let deep: unknown = {};
  for (let i = 0; i < MAX_SCHEMA_DEPTH + 5; i++) deep = { not: deep };
  assert.equal(schemaProblem(deep, "schema"), "it nests deeper than 1,000 levels");
  let fine: unknown = {};
  for (let i = 0; i < 100; i++) fine = { not: { not: fine }, type: "object" };
  assert.equal(schemaProblem({ properties: { a: fine } }, "schema"), undefined);
});
