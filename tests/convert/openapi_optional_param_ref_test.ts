/**
 * A `$ref` that points to nothing in the schema of an optional parameter
 * (one the suite leaves out, as it leaves out every optional parameter
 * nothing fills) changes no flow, so it does not refuse the document. Found
 * on a Feathers 5 application's document from `feathers-swagger` 3
 * (measured by hand, see docs/real-servers.md): the OAuth service mounted at
 * `/oauth/:provider` gets a `filter` query parameter (optional,
 * `style: form`) whose schema is `{$ref: "#/components/schemas/:provider"}`,
 * a name the generator made from the route and never wrote; the whole
 * document of 16 operations was refused (exit 2), so 0 were sent. The
 * parameter's schema is now read as any value; one an operation needs (a
 * required or path parameter, a body, a response) is still refused
 * (tests/convert/openapi_unused_refs_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A listing at `/things` with a `filter` parameter whose schema names nothing. */
function document(required: boolean, where = "query") {
  const filter = {
    description: "Query parameters to filter",
    in: where,
    name: "filter",
    style: "form",
    explode: true,
    ...(required ? { required: true } : {}),
    schema: { $ref: "#/components/schemas/:provider" },
  };
  const page = { in: "query", name: "$limit", schema: { type: "integer" } };
  return {
    openapi: "3.0.3",
    info: { title: "Things", version: "1" },
    paths: {
      "/things": {
        get: {
          parameters: [page, filter],
          responses: {
            "200": {
              description: "success",
              content: {
                "application/json": { schema: { type: "array", items: { type: "string" } } },
              },
            },
          },
        },
      },
    },
    components: { schemas: { Thing: { type: "string" } } },
  };
}

Deno.test("convert openapi: a $ref to nothing in an optional parameter's schema does not refuse the document", async () => {
  const server = serveStandIn((req) =>
    new URL(req.url).pathname === "/things"
      ? Response.json(["a"])
      : new Response("no", { status: 404 })
  );
  const { runs, flows } = await convertAndRunSuite(document(false), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(![...flows.values()].join("\n").includes("filter:"), "the optional filter is left out");
});

for (const [required, where] of [[true, "query"], [true, "header"]] as const) {
  Deno.test(`convert openapi: a $ref to nothing in a required ${where} parameter's schema is still refused`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(required, where)));
      const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(
        run.stderr,
        /error\[bad-openapi-ref\]: The \$ref "#\/components\/schemas\/:provider"/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
