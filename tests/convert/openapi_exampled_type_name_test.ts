/**
 * `convert openapi` on a Swagger 2.0 body whose properties are typed by a
 * name that is no JSON Schema type, no common name and no string format
 * (`type: handle`), as docstrings written by hand do, but carry an example.
 * No type matched the name, so the property was left out of the body: a
 * register without its required user name, which a Flask server answered
 * 500. The example is the document's own evidence of the value's type.
 * The stand-in on 127.0.0.1 takes the body only with each key of its type.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

function document(): Record<string, unknown> {
  const body = {
    type: "object",
    required: ["email", "password", "handle", "seats", "public"],
    properties: {
      email: { type: "string", format: "email", example: "user@example.com" },
      password: { type: "string", format: "password", example: "********" },
      handle: { type: "handle", example: "someone1" },
      seats: { type: "count", example: 3 },
      public: { type: "flag", default: false },
    },
  };
  return {
    swagger: "2.0",
    info: { title: "sign-up", version: "1" },
    paths: {
      "/accounts": {
        post: {
          parameters: [{ name: "body", in: "body", required: true, schema: body }],
          responses: { 201: { description: "made" } },
        },
      },
    },
  };
}

Deno.test("convert openapi: a body property typed by no known name is sent as its example's type", async () => {
  const seen: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const got = await req.json();
    seen.push(got);
    const ok = typeof got.handle === "string" && got.handle !== "" &&
      Number.isInteger(got.seats) && typeof got.public === "boolean";
    return ok
      ? Response.json({ id: 1 }, { status: 201 })
      : Response.json({ error: "missing field" }, { status: 500 });
  });
  const { summary, runs: [run] } = await convertAndRunSuite(document(), server);
  assert.equal(run.code, 0, summary + run.stdout + run.stderr + JSON.stringify(seen));
  assert.equal(seen.length, 1, JSON.stringify(seen));
});
