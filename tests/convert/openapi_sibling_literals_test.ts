/**
 * A path parameter whose place other paths of the document fill with words
 * of their own (`/resources/{resourceType}/_providers` beside
 * `/resources/routes`, `/resources/waypoints/{id}`: Signal K's resources
 * API) takes the first of those words: they are the values the server
 * routes there. It was a placeholder (`string`), and the providers' reads
 * got 404 (still a var to check, holding the word). One word alone (`/users/me` beside `/users/{id}`) is no family
 * of values, and a parameter the document gives a value keeps it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const TEXT = { type: "array", items: { type: "string" } };
const ok = (schema: unknown) => ({
  "200": { description: "OK", content: { "application/json": { schema } } },
});

/** A resources document: two collections, and their providers addressed by `{resourceType}`. */
function resourcesDocument(typeSchema: Record<string, unknown> = { type: "string" }) {
  const resourceType = { name: "resourceType", in: "path", required: true, schema: typeSchema };
  return {
    openapi: "3.0.0",
    info: { title: "Resources", version: "1" },
    servers: [{ url: "/api" }],
    paths: {
      "/resources": { get: { responses: ok({ type: "object" }) } },
      "/resources/routes": { get: { responses: ok({ type: "object" }) } },
      "/resources/waypoints": { get: { responses: ok({ type: "object" }) } },
      "/resources/{resourceType}/_providers": {
        parameters: [resourceType],
        get: { summary: "List of resource providers for the resource type.", responses: ok(TEXT) },
      },
    },
  };
}

Deno.test("convert openapi fills a path parameter with the first word other paths put at its place", async () => {
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    const types = /^\/api\/resources\/([^/]+)\/_providers$/.exec(path);
    if (types && !["routes", "waypoints"].includes(types[1])) {
      return Response.json({ message: "Not found" }, { status: 404 });
    }
    return Response.json(types ? ["resources-provider"] : {});
  });
  const { runs, flows } = await convertAndRunSuite(resourcesDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.ok(seen.includes("/api/resources/routes/_providers"), seen.join(", "));
  // Still a var the summary names, to be checked: its value is the document's first word.
  assert.match([...flows.values()].join("\n"), /^ {2}resourceType: routes$/m);
});

Deno.test("one word at the place, a value the document gives, or a word the schema refuses is not taken", async () => {
  const cases: [string, ReturnType<typeof resourcesDocument>, string][] = [];
  const single = resourcesDocument();
  delete (single.paths as Record<string, unknown>)["/resources/waypoints"];
  cases.push(["one word", single, "/api/resources/string/_providers"]);
  cases.push([
    "an example",
    resourcesDocument({ type: "string", example: "notes" }),
    "/api/resources/notes/_providers",
  ]);
  cases.push([
    "a pattern",
    resourcesDocument({ type: "string", pattern: "^[0-9]+$" }),
    "/api/resources/0/_providers",
  ]);
  for (const [what, doc, expected] of cases) {
    const seen: string[] = [];
    const server = serveStandIn((req) => {
      seen.push(new URL(req.url).pathname);
      return Response.json([]);
    });
    await convertAndRunSuite(doc, server);
    assert.ok(seen.includes(expected), `${what}: ${seen.join(", ")}`);
  }
});
