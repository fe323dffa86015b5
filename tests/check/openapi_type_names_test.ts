/**
 * `openapi:` checks read a schema `type` that names no JSON Schema type as
 * the converter reads it (lib/_util/type_names.ts): a type named in another
 * case (`String`), a common name (`int`), a string format's name, and
 * `Date`, which TypeBox-based generators write for a JavaScript `Date` (a
 * string once sent as JSON); any other name (`Uint8Array`) says nothing a
 * JSON value can be checked against and is not a constraint. The validator
 * refused every such document ("type must be JSONType or JSONType[]"), so
 * each answer whose schema held one failed its check though the server
 * answered as documented. Run through the CLI against a server started
 * here, a step per body, so each rule is shown both admitting and refusing.
 */
import { checkSchemaCases, type SchemaCase } from "../support/schema_cases.ts";

const SCHEMA = {
  type: "object",
  properties: {
    made: { type: "Date" },
    count: { type: "int" },
    label: { type: "String" },
    mail: { type: "email" },
    either: { type: ["Date", "null"] },
    blob: { type: "Uint8Array" },
    plain: { type: "string" },
    // Data, not a schema: kept as written.
    shape: { enum: [{ type: "Point" }] },
  },
};

/** Each body, and the violation the check must report (none: it passes). */
const CASES: SchemaCase[] = [
  [{
    made: "2026-11-30T10:48:21.019Z",
    count: 3,
    label: "a",
    mail: "a@b.test",
    either: null,
    blob: [1, 2],
    plain: "p",
  }, undefined],
  [{ blob: { any: "thing" }, either: "2026-11-30T10:48:21.019Z" }, undefined],
  [{ made: 5 }, /\/made must be string/],
  [{ count: "3" }, /\/count must be integer/],
  [{ label: 1 }, /\/label must be string/],
  [{ either: 7 }, /\/either must be string,null/],
  [{ plain: 1 }, /\/plain must be string/],
  [{ shape: { type: "Point" } }, undefined],
  [{ shape: { type: "Line" } }, /\/shape must be equal to one of the allowed values/],
];

Deno.test("a type named as no JSON Schema type is read as the converter reads it, not refused", () =>
  checkSchemaCases("names", SCHEMA, CASES, /JSONType/));
