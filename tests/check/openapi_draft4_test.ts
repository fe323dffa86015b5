/**
 * `openapi:` checks read an OpenAPI 3.0 document's draft-4 forms as 3.0 means
 * them: `exclusiveMinimum: true` / `exclusiveMaximum: true` beside `minimum` /
 * `maximum` (3.1 writes the bound itself; svix's 3.0 document writes the
 * boolean, and every check of it failed with "exclusiveMinimum value must be
 * number"), `nullable`, and `x-nullable` (Swagger 2.0's, which the 2.0
 * upgrade keeps). Run through the CLI against a server started here, a step
 * per body, so every rule is shown both admitting and refusing.
 */
import { checkSchemaCases, type SchemaCase } from "../support/schema_cases.ts";

const SCHEMA = {
  type: "object",
  properties: {
    above: { type: "integer", minimum: 0, exclusiveMinimum: true },
    below: { type: "number", maximum: 10, exclusiveMaximum: true },
    inclusive: { type: "integer", minimum: 1, maximum: 3, exclusiveMinimum: false },
    maybe: { type: "string", nullable: true },
    legacy: { type: "string", "x-nullable": true },
    plain: { type: "string" },
  },
};

/** Each body, and the violation the check must report (none: it passes). */
const CASES: SchemaCase[] = [
  [{ above: 1, below: 9.5, inclusive: 1, maybe: null, legacy: null }, undefined],
  [{ above: 0 }, /\/above must be > 0/],
  [{ below: 10 }, /\/below must be < 10/],
  [{ inclusive: 4 }, /\/inclusive must be <= 3/],
  [{ inclusive: 0 }, /\/inclusive must be >= 1/],
  [{ plain: null }, /\/plain must be string/],
  [{ legacy: 7 }, /\/legacy must be string,null/],
];

Deno.test("3.0's boolean exclusive bounds, nullable and x-nullable are read as 3.0 means them", () =>
  checkSchemaCases("draft4", SCHEMA, CASES, /value must be/));
