/**
 * `convert openapi`: the rules `hapi-swagger` writes in its own keys are kept
 * in the values a flow sends. For Joi's `.email()`, `.guid()`, `.uri()`,
 * `.isoDate()`, `.hex()` and `.alphanum()` it writes `x-format`, not
 * `format`; for a string's or an array's `.length(n)`, a number's
 * `.greater(n)`, `.less(n)`, `.multiple(n)`, `.positive()`, `.negative()`
 * and an array's `.unique()` it writes `x-constraint`, not the JSON Schema
 * keywords. Read as plain strings and numbers, a body sent `string` for an
 * email and `1` for a number Joi wants greater than 10, and the server's
 * Joi refused it 400 `"email" must be a valid email`. A number's
 * `multipleOf` (TypeBox, Fastify's JSON schemas) is kept too.
 *
 * The stand-in server below checks each body as Joi would, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A sign-up whose members carry each of `hapi-swagger`'s own spellings, as Swagger 2.0. */
function document() {
  const member = {
    type: "object",
    required: [
      "contact",
      "ref",
      "site",
      "born",
      "colour",
      "handle",
      "pin",
      "age",
      "below",
      "step",
      "up",
      "down",
      "pair",
      "pick",
      "scale",
    ],
    properties: {
      contact: { type: "string", "x-format": { email: { tlds: false } } },
      ref: { type: "string", "x-format": { guid: { version: ["uuidv4"] } } },
      site: { type: "string", "x-format": { uri: true } },
      born: { type: "string", "x-format": { isoDate: true } },
      colour: { type: "string", "x-format": { hex: true } },
      handle: { type: "string", minLength: 3, "x-format": { alphanum: true } },
      pin: { type: "string", "x-constraint": { length: 4 } },
      age: { type: "integer", "x-constraint": { greater: 17 } },
      below: { type: "number", "x-constraint": { less: -3 } },
      step: { type: "integer", minimum: 5, "x-constraint": { multiple: 4 } },
      up: { type: "number", "x-constraint": { sign: "positive" }, maximum: 0.5 },
      down: { type: "integer", "x-constraint": { sign: "negative" } },
      pair: { type: "array", items: { type: "string" }, "x-constraint": { length: 2 } },
      pick: {
        type: "array",
        items: { type: "integer" },
        minItems: 3,
        "x-constraint": { unique: true },
      },
      scale: { type: "number", minimum: 7, multipleOf: 2.5 },
    },
  };
  return {
    swagger: "2.0",
    info: { title: "Members", version: "1" },
    host: "localhost",
    schemes: ["http"],
    paths: {
      "/members": {
        post: {
          tags: ["members"],
          parameters: [{ in: "body", name: "body", schema: { $ref: "#/definitions/Member" } }],
          responses: { "200": { description: "Successful", schema: { type: "object" } } },
        },
      },
    },
    definitions: { Member: member },
  };
}

/** Each member's rule as Joi checks it; the first one broken is named, as Joi's 400 names it. */
const RULES: Record<string, (v: unknown) => boolean> = {
  contact: (v) => typeof v === "string" && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v),
  ref: (v) =>
    typeof v === "string" &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v),
  site: (v) => typeof v === "string" && /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(v),
  born: (v) =>
    typeof v === "string" && !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}/.test(v),
  colour: (v) => typeof v === "string" && /^[0-9a-f]+$/i.test(v),
  handle: (v) => typeof v === "string" && /^[a-z0-9]{3,}$/i.test(v),
  pin: (v) => typeof v === "string" && v.length === 4,
  age: (v) => Number.isInteger(v) && (v as number) > 17,
  below: (v) => typeof v === "number" && v < -3,
  step: (v) => Number.isInteger(v) && (v as number) >= 5 && (v as number) % 4 === 0,
  up: (v) => typeof v === "number" && v > 0 && v <= 0.5,
  down: (v) => Number.isInteger(v) && (v as number) < 0,
  pair: (v) => Array.isArray(v) && v.length === 2,
  pick: (v) => Array.isArray(v) && v.length >= 3 && new Set(v).size === v.length,
  scale: (v) => typeof v === "number" && v >= 7 && Number.isInteger(v / 2.5),
};

function server() {
  return serveStandIn(async (req) => {
    const body = await req.json().catch(() => ({}));
    for (const [name, ok] of Object.entries(RULES)) {
      if (!ok(body?.[name])) {
        const message = `"${name}" fails its rule: ${JSON.stringify(body?.[name])}`;
        return Response.json({ statusCode: 400, error: "Bad Request", message }, { status: 400 });
      }
    }
    return Response.json({ id: crypto.randomUUID(), ...body });
  });
}

Deno.test("a body keeps hapi-swagger's x-format and x-constraint rules and multipleOf", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), server());
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /1 steps?: 1 passed/, run.stdout);
});
