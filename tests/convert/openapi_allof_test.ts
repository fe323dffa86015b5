/**
 * Values for `allOf` schemas whose parts split an object between them, as
 * Box's document writes them: a `required` name in one part (or beside the
 * `allOf`) whose property is declared in another part gets that property's
 * value, not a guessed string, the required names beside the `allOf` are
 * filled too, and a part's `oneOf` branch is merged; optional properties
 * are filled down to the depth asked for.
 */
import assert from "node:assert/strict";
import { ExampleMaker } from "../../lib/convert/openapi/examples.ts";

const doc = {
  components: {
    schemas: {
      Mini: {
        type: "object",
        allOf: [
          { $ref: "#/components/schemas/Base" },
          { properties: { segment: { $ref: "#/components/schemas/Segment" } } },
        ],
        required: ["segment"],
      },
      Base: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
      Segment: { type: "object", required: ["type"], properties: { type: { enum: ["segment"] } } },
      Page: {
        type: "object",
        allOf: [{ properties: { limit: { type: "integer" } } }, {
          properties: { entries: { type: "array", items: { $ref: "#/components/schemas/Base" } } },
        }],
        required: ["entries"],
      },
      Named: { allOf: [{ $ref: "#/components/schemas/Name" }], description: "a name" },
      Name: { type: "string", example: "Ann" },
      Item: { type: "object", oneOf: [{ type: "null" }, { $ref: "#/components/schemas/Base" }] },
      Collaboration: {
        type: "object",
        required: ["item"],
        properties: { item: { allOf: [{ $ref: "#/components/schemas/Item" }], nullable: true } },
      },
    },
  },
};
const make = (name: string) =>
  new ExampleMaker(doc, "response").make({ $ref: `#/components/schemas/${name}` });

Deno.test("a required name whose property another allOf part declares gets that property's value", () => {
  assert.deepEqual(make("Mini"), { id: "string", segment: { type: "segment" } });
});

Deno.test("the required names beside an allOf are filled", () => {
  assert.deepEqual(make("Page"), { entries: [{ id: "string" }] });
});

Deno.test("an allOf part's oneOf branch is part of the object", () => {
  assert.deepEqual(make("Collaboration"), { item: { id: "string" } });
});

Deno.test("an allOf of a value that is no object still gives its part's value", () => {
  assert.equal(make("Named"), "Ann");
});

Deno.test("optional properties are filled down to the depth asked for (a mock answering as a server asks)", () => {
  const schema = {
    type: "object",
    required: ["type"],
    properties: {
      type: { enum: ["task"] },
      id: { type: "string", example: "11446498" },
      secret: { type: "string", writeOnly: true },
      item: { $ref: "#/components/schemas/Mini" },
    },
  };
  assert.deepEqual(
    new ExampleMaker(doc, "response").make(schema),
    { type: "task" },
    "none by default",
  );
  assert.deepEqual(new ExampleMaker(doc, "response", 1).make(schema), {
    type: "task",
    id: "11446498",
    item: { id: "string", segment: { type: "segment" } },
  }, "the top object's only; write-only ones never in a response");
});
