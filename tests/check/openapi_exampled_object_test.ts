/**
 * `openapi:` checks read a `type: object` that describes no member, whose
 * own `example` is no object, as that example's type too: the document says
 * both, and the example is the one the author wrote. `@nestjs/swagger`
 * writes `type: object` for a property TypeScript types as a union
 * (`string | null`: its reflected type is `Object`), beside the author's
 * `example: "Create a mockup in Figma"`; a NestJS Trello-like API answered
 * the text its example shows, and six of its steps failed "must be
 * object,null" though the server answered as its document's example says.
 * A schema that describes members (`properties`, `additionalProperties`, a
 * composition) or gives no example stays an object; a value of neither type
 * is still refused.
 */
import { checkSchemaCases, type SchemaCase } from "../support/schema_cases.ts";

const SCHEMA = {
  type: "object",
  properties: {
    note: { type: "object", nullable: true, example: "a text" },
    count: { type: "object", example: 3 },
    tags: { type: "object", example: ["a", "b"] },
    shaped: { type: "object", properties: { a: { type: "string" } }, example: "x" },
    open: { type: "object", additionalProperties: { type: "integer" }, example: "x" },
    bare: { type: "object" },
    whole: { type: "object", example: { a: 1 } },
  },
};

/** Each body, and the violation the check must report (none: it passes). */
const CASES: SchemaCase[] = [
  [{ note: "words", count: 4, tags: ["c"], whole: { b: 2 } }, undefined],
  [{ note: null, count: { n: 1 }, tags: { any: 1 }, shaped: { a: "b" } }, undefined],
  [{ note: 5 }, /\/note must be object,null,string/],
  [{ count: "4" }, /\/count must be object,number/],
  [{ shaped: "x" }, /\/shaped must be object/],
  [{ open: "x" }, /\/open must be object/],
  [{ bare: "x" }, /\/bare must be object/],
  [{ whole: "x" }, /\/whole must be object/],
];

Deno.test("a memberless object type whose example is no object admits the example's type", () =>
  checkSchemaCases("exampled", SCHEMA, CASES, /JSONType/));
