/**
 * `openapi:` checks of a document that writes null nowhere (no `nullable`,
 * no `x-nullable`, no `"null"` type, no null in an `enum` or `const`) admit
 * `null` for a member its schema does not require: such a document cannot
 * say that a member may be null, and its server writes an unset optional
 * member as `null` (pydantic 1, behind FastAPI before 0.100, writes
 * `Optional[str] = None` as `{type: string}`, not required, and answers
 * `"description": null`: every answer of an item without a description
 * failed its check, on two FastAPI inventory APIs, while the status was
 * 2xx). A required member stays non-null, a member of another type still
 * fails, and a document that writes null somewhere is read as written.
 * Run through the CLI against a server started here, a step per body.
 */
import { checkSchemaCases, type SchemaCase } from "../support/schema_cases.ts";

const ITEM = {
  type: "object",
  properties: {
    id: { type: "integer" },
    title: { type: "string" },
    description: { type: "string" },
    kind: { type: "string", enum: ["a", "b"] },
    owner: { allOf: [{ type: "object", properties: { id: { type: "integer" } } }] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["id", "title"],
};

/** Each body, and the violation the check must report (none: it passes). */
const SILENT: SchemaCase[] = [
  [{ id: 1, title: "t", description: null, kind: null, owner: null, tags: null }, undefined],
  [{ id: 1, title: "t", description: "d", kind: "a", tags: ["x"] }, undefined],
  [{ id: 1, title: null }, /\/title must be string/],
  [{ id: 1, title: "t", description: 7 }, /\/description must be string,null/],
  [{ id: 1, title: "t", kind: "c" }, /\/kind must be equal to one of the allowed values/],
  [{ id: 1, title: "t", owner: 3 }, /\/owner must be object/],
];

Deno.test("a document that writes null nowhere admits null for a member its schema does not require", () =>
  checkSchemaCases("silent", ITEM, SILENT, /description must be string$/m));

const SAYS = {
  ...ITEM,
  properties: { ...ITEM.properties, note: { type: "string", nullable: true } },
};

Deno.test("a document that writes nullable somewhere is read as written: an optional member is not null", () =>
  checkSchemaCases("says", SAYS, [
    [{ id: 1, title: "t", note: null }, undefined],
    [{ id: 1, title: "t", description: null }, /\/description must be string/],
  ], /description must be string,null/));
