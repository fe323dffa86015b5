/**
 * Schemas compiled at load time on the helper thread: a usable schema gets
 * its validator (an OpenAPI document is added, its response schemas compiled
 * when first used); one the validator refuses, or that refers to itself, is
 * a problem with its check; an aborted signal stops compiling; a check
 * prepared once is not compiled again.
 */
import assert from "node:assert/strict";
import { guardedValidator, prepareSchemas } from "../../lib/load/schema_compile.ts";
import type { Flow, SchemaCheck } from "../../lib/model/flow.ts";

const schemaCheck = (schema: unknown): SchemaCheck => ({
  kind: "schema",
  source: "inline schema",
  schema,
  file: "f.yaml",
  line: 4,
  column: 7,
});

const flowOf = (...schemas: SchemaCheck[]) =>
  ({
    file: "f.yaml",
    name: "f",
    vars: [],
    steps: [{ name: "s", assert: { paths: [], schemas } }],
  }) as unknown as Flow;

Deno.test("usable schemas get validators; others are problems with their check", async () => {
  const good = schemaCheck({ type: "object", required: ["id"] });
  const refused = schemaCheck({ type: "no-such-type" });
  const loop = schemaCheck({ allOf: [{ $ref: "#" }] });
  const problems = await prepareSchemas([flowOf(good, refused, loop)]);
  assert.deepEqual(problems.map((p) => p.check), [refused, loop]);
  assert.match(problems[1].message, /refers to itself/);
  assert.ok(good.kind === "schema" && good.validate);
  assert.deepEqual(good.validate({ id: 1 }), []);
  assert.deepEqual(good.validate({}), [{ at: "", message: "must have required property 'id'" }]);
  // Prepared once: the next call has nothing to compile.
  assert.deepEqual(await prepareSchemas([flowOf(good)]), []);
});

Deno.test("an OpenAPI document is added; its response schemas validate through a reference", async () => {
  const check: SchemaCheck = {
    kind: "openapi",
    source: "api.yaml",
    document: {
      openapi: "3.0.3",
      components: {
        schemas: {
          Item: { type: "object", properties: { note: { type: "string", nullable: true } } },
        },
      },
    },
    file: "f.yaml",
    line: 1,
    column: 1,
  };
  assert.deepEqual(await prepareSchemas([flowOf(check)]), []);
  assert.ok(check.kind === "openapi" && check.ajv);
  const validate = guardedValidator(check, "openapi#/components/schemas/Item");
  assert.deepEqual(validate({ note: null }), [], "nullable is read as OpenAPI 3.0 means it");
  assert.equal(validate({ note: 1 }).length, 1);
});

Deno.test("nullable without a type (beside allOf or $ref, as Box's document writes it) allows null", async () => {
  const check: SchemaCheck = {
    kind: "openapi",
    source: "api.yaml",
    document: {
      openapi: "3.0.2",
      components: {
        schemas: {
          Mini: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
          Item: {
            type: "object",
            properties: {
              parent: { allOf: [{ $ref: "#/components/schemas/Mini" }], nullable: true },
              owner: { $ref: "#/components/schemas/Mini", nullable: false },
            },
          },
        },
      },
    },
    file: "f.yaml",
    line: 1,
    column: 1,
  };
  assert.deepEqual(await prepareSchemas([flowOf(check)]), []);
  const validate = guardedValidator(check, "openapi#/components/schemas/Item");
  assert.deepEqual(validate({ parent: null, owner: { id: "1" } }), []);
  assert.deepEqual(validate({ parent: { id: "1" } }), []);
  assert.ok(validate({ parent: {} }).length > 0, "the schema still applies to a value");
  assert.ok(validate({ owner: null }).length > 0, "nullable: false adds nothing");
});

Deno.test("a pattern only JavaScript without the u flag reads (\\: as DigitalOcean writes it) is used", async () => {
  const inline = schemaCheck({ type: "string", pattern: "^[a-zA-Z0-9_\\-\\:]+$" });
  const keys = schemaCheck({ type: "object", patternProperties: { "^x\\_": { type: "integer" } } });
  const check: SchemaCheck = {
    kind: "openapi",
    source: "api.yaml",
    document: {
      openapi: "3.0.0",
      components: {
        schemas: { Tag: { type: "object", properties: { name: { pattern: "^a\\:b$" } } } },
      },
    },
    file: "f.yaml",
    line: 1,
    column: 1,
  };
  assert.deepEqual(await prepareSchemas([flowOf(inline, keys, check)]), []);
  assert.ok(inline.kind === "schema" && inline.validate && keys.kind === "schema" && keys.validate);
  assert.deepEqual(inline.validate("env:prod-1"), []);
  assert.equal(inline.validate("no spaces").length, 1);
  assert.deepEqual(keys.validate({ x_a: 1 }), []);
  assert.equal(keys.validate({ x_a: "1" }).length, 1);
  const validate = guardedValidator(check, "openapi#/components/schemas/Tag");
  assert.deepEqual(validate({ name: "a:b" }), []);
  assert.equal(validate({ name: "ab" }).length, 1);
  // A pattern no reading accepts is still refused, with its check.
  const broken = schemaCheck({ type: "string", pattern: "^(a$" });
  const [problem] = await prepareSchemas([flowOf(broken)]);
  assert.equal(problem.check, broken);
});

Deno.test("an aborted signal stops compiling", async () => {
  const controller = new AbortController();
  controller.abort();
  const check = schemaCheck({ type: "no-such-type" });
  assert.deepEqual(await prepareSchemas([flowOf(check)], controller.signal), []);
  assert.ok(check.kind === "schema" && check.validate === undefined);
});
