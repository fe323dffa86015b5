/**
 * A `$ref` that points to nothing in a part of the document no operation
 * uses (a response or schema under `components` that no path names, as
 * Signal K server's notifications and resources-provider documents have
 * one) changes no flow: `convert openapi` converts the document, and the
 * suite passes against a stand-in. One that an operation reaches, through
 * any chain of `$ref`s, is still refused (tests/cli/convert_openapi_input_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const THING = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string" } },
};

/** A document of one operation whose components hold `unused`, beside what the operation uses. */
function documentWith(
  unused: Record<string, unknown>,
  used: unknown = { $ref: "#/components/schemas/Thing" },
) {
  return {
    openapi: "3.0.0",
    info: { title: "Things", version: "1" },
    servers: [{ url: "/api" }],
    paths: {
      "/things": {
        get: {
          responses: {
            "200": {
              description: "The things",
              content: { "application/json": { schema: { type: "array", items: used } } },
            },
          },
        },
      },
    },
    components: { ...unused, schemas: { Thing: THING, ...unused.schemas as object } },
  };
}

const things = () =>
  serveStandIn((req) =>
    new URL(req.url).pathname === "/api/things"
      ? Response.json([{ id: "a" }])
      : new Response("no", { status: 404 })
  );

Deno.test("a $ref to nothing in a response no operation names does not refuse the document", async () => {
  const doc = documentWith({
    responses: {
      ListResponse: {
        description: "A list",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Notifications" } } },
      },
    },
  });
  const { runs } = await convertAndRunSuite(doc, things());
  assert.equal(runs[0].code, 0, runs[0].stdout);
});

Deno.test("a $ref to nothing anywhere no operation reaches does not refuse the document", async () => {
  // A property of an unused response, an unused schema, an unused schema's items and the chain
  // of unused schemas that leads to one: none is reached from a path.
  const doc = documentWith({
    schemas: {
      Unused: { type: "object", properties: { id: { $ref: "#/components/schemas/SignalKUuid" } } },
      Chain: { $ref: "#/components/schemas/Unused" },
      List: { type: "array", items: { $ref: "#/components/schemas/Gone" } },
    },
    responses: {
      "201ActionResponse": {
        description: "POST OK response",
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: { id: { $ref: "#/components/schemas/SignalKUuid" } },
            },
          },
        },
      },
    },
    parameters: { Id: { name: "id", in: "path", required: true, schema: { $ref: "#/x/y" } } },
  });
  const { runs } = await convertAndRunSuite(doc, things());
  assert.equal(runs[0].code, 0, runs[0].stdout);
});

Deno.test("a $ref to nothing that an operation reaches through other $refs is still refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const doc = documentWith(
      {
        schemas: {
          Wrapper: { type: "object", properties: { id: { $ref: "#/components/schemas/Gone" } } },
        },
      },
      { $ref: "#/components/schemas/Wrapper" },
    );
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /error\[bad-openapi-ref\]: The \$ref "#\/components\/schemas\/Gone" .* points to nothing/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
