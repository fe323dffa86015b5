/**
 * A property's `example` that contradicts its own schema is not the value:
 * GererMesAffaires writes `Home: {type: boolean, example: "yes"}`, and the
 * converted suite sent "yes", a body the document's own schema refuses. An
 * example (or `default`, or the first of `examples`) is used only when it
 * validates against its schema (type, `nullable`, `enum`, `pattern`,
 * lengths, bounds, items and properties); else the value is generated from
 * the schema, as for a property with no example. The generated mock answers
 * by the same rule, so its answers pass the suite's `openapi:` checks.
 *
 * A scalar example of the other JSON type is read as the type its schema
 * asks (issue 52): GererMesAffaires' `RegistrationNumber: {type: string,
 * example: 5146486846}` means the text "5146486846", and `{type: integer,
 * example: "10"}` means 10, when that reading fits the schema (pattern,
 * lengths, a format, enum, bounds) and keeps the digits the document wrote.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withConverted } from "../support/openapi_converted.ts";

/** Each property: its schema, and the value the request body must hold. */
const PROPERTIES: Record<string, [Record<string, unknown>, unknown]> = {
  home: [{ type: "boolean", example: "yes" }, true],
  count: [{ type: "integer", example: "12,17" }, 1],
  ratio: [{ type: "number", example: 2.5 }, 2.5],
  whole: [{ type: "integer", example: 2.5 }, 1],
  status: [{ type: "string", enum: ["open", "closed"], example: "pending" }, "open"],
  code: [{ type: "string", pattern: "^[A-Z]{3}$", example: "abc" }, "AAA"],
  short: [{ type: "string", maxLength: 3, example: "toolong" }, "str"],
  size: [{ type: "integer", minimum: 1, maximum: 5, example: 9 }, 1],
  above: [{ type: "integer", minimum: 4, exclusiveMinimum: true, example: 4 }, 5],
  tags: [{ type: "array", items: { type: "string" }, example: [1, 2] }, ["string"]],
  owner: [{
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" } },
    example: { name: 7 },
  }, "a string name, not 7"],
  report: [{ type: "object", example: "none" }, {}],
  rank: [{ type: "integer", example: "three", default: 2 }, 2],
  name: [{ type: "string", example: "Widget" }, "Widget"],
  color: [{ type: "string", nullable: true, example: null }, null],
  kind: [{ type: "string", enum: ["a", "b"], example: "b" }, "b"],
  level: [{ type: "integer", examples: ["x", 3] }, 3],
  // A scalar example of the other JSON type: its text (or the number a text
  // writes) is the value when that fits the schema.
  registration: [{ type: "string", example: 5146486846 }, "5146486846"],
  price: [{ type: "string", example: 100.5 }, "100.5"],
  answer: [{ type: "string", example: true }, "true"],
  digits: [{ type: "string", pattern: "^[0-9]{6}$", example: 201902 }, "201902"],
  width: [{ type: "string", format: "int64", example: 42 }, "42"],
  choice: [{ type: "string", enum: ["1", "2"], example: 2 }, "2"],
  amount: [{ type: "integer", example: "10" }, 10],
  share: [{ type: "number", example: "2.5" }, 2.5],
  negative: [{ type: "integer", example: "-7" }, -7],
  // ... and when it does not, the value is made from the schema.
  letters: [{ type: "string", pattern: "^[A-Z]{3}$", example: 123 }, "AAA"],
  brief: [{ type: "string", maxLength: 3, example: 12345 }, "str"],
  // The format's value in a body is the run's day (time_window.ts): checked below.
  day: [{ type: "string", format: "date", example: 20190130 }, "${NOW.DATE}"],
  // The generator's placeholder, made per run (run_values.ts): checked by its form below.
  huge: [{ type: "string", example: 12345678901234567890 }, "huge-"],
  pick: [{ type: "string", enum: ["a", "b"], example: 1 }, "a"],
  cap: [{ type: "integer", maximum: 5, example: "9" }, 1],
  part: [{ type: "integer", example: "2.5" }, 1],
  spaced: [{ type: "integer", example: " 10" }, 1],
  hex: [{ type: "integer", example: "0x10" }, 1],
};

const GADGET = {
  type: "object",
  required: Object.keys(PROPERTIES),
  properties: Object.fromEntries(Object.entries(PROPERTIES).map(([k, [s]]) => [k, s])),
};

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Gadgets", version: "1" },
  servers: [{ url: "http://gadgets.test" }],
  paths: {
    "/gadgets": {
      post: {
        operationId: "createGadget",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Gadget" } } },
        },
        responses: {
          "201": {
            description: "made",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Gadget" } } },
          },
        },
      },
    },
  },
  components: { schemas: { Gadget: GADGET } },
};

Deno.test("an example its own schema refuses is not sent: the value is made from the schema", async () => {
  await withConverted(DOCUMENT, async ({ out, mock }) => {
    const before = new Date().toISOString().slice(0, 10);
    const run = await runCli(["run", `${out}`], { env: { BASE_URL: mock.base } });
    const days = [before, new Date().toISOString().slice(0, 10)];
    // The mock's answer is made by the same rule: the step's openapi: check passes.
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 step: 1 passed/);
    const sent = JSON.parse(mock.bodies.get("POST /gadgets")!);
    const expected = Object.fromEntries(Object.entries(PROPERTIES).map(([k, [, v]]) => [k, v]));
    // A name is made unique per run (a create's name must not clash): its type is what counts.
    assert.equal(typeof sent.owner.name, "string");
    assert.match(sent.huge, /^huge-[0-9a-f]{8}$/);
    assert.ok(days.includes(sent.day), `the run's day, not ${sent.day}`);
    const made = { owner: expected.owner, huge: expected.huge, day: expected.day };
    assert.deepEqual({ ...sent, ...made }, expected);
  });
});
