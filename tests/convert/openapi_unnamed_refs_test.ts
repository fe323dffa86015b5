/**
 * A `$ref` whose pointer ends in an empty name (`#/components/schemas/`)
 * names no schema: it is what a generator writes for a type it could not
 * name (`@nestjs/swagger` for a body of `string[]` or `Record<…>`, as
 * Homebridge UI's document holds nine). It is read as a schema that says
 * nothing (any value) instead of refusing the whole document, and the
 * operations that hold it are sent and checked like the others. An
 * operation reaching a named `$ref` to nothing is left out and named in the
 * summary (openapi_broken_refs_test.ts); a document whose every operation
 * does is still refused (openapi_unused_refs_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const unnamed = { $ref: "#/components/schemas/" };

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A document whose list write takes items of an unnamed type and whose read answers one. */
const DOC = {
  openapi: "3.0.0",
  info: { title: "Ports", version: "1" },
  paths: {
    "/ports": {
      put: {
        requestBody: { required: true, ...json({ type: "array", items: unnamed }) },
        responses: { "200": { description: "The ports" } },
      },
    },
    "/ports/current": {
      get: { responses: { "200": { description: "The ports", ...json(unnamed) } } },
    },
  },
  components: { schemas: { Port: { type: "object", properties: { port: { type: "number" } } } } },
};

Deno.test("a $ref that names no schema (an empty name) is any value, not a refused document", async () => {
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "PUT" && path === "/ports") {
      const body = await req.json();
      return Array.isArray(body) ? Response.json({}) : new Response("not a list", { status: 400 });
    }
    if (path === "/ports/current") return Response.json({ start: 1, end: 2 });
    return new Response("no", { status: 404 });
  });
  const { runs, summary } = await convertAndRunSuite(DOC, server);
  assert.match(summary, /Converted Ports: 2 operations/);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.deepEqual(seen.sort(), ["GET /ports/current", "PUT /ports"]);
});

Deno.test("a $ref to a missing schema that has a name leaves its operation out, named; the rest converts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const doc = structuredClone(DOC);
    doc.paths["/ports/current"].get.responses["200"].content["application/json"].schema = {
      $ref: "#/components/schemas/Ports",
    };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Converted Ports: 1 operation/);
    assert.match(
      run.stderr,
      /Left out 1 operation whose document names a \$ref to nothing .*: GET \/ports\/current \(#\/components\/schemas\/Ports\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
