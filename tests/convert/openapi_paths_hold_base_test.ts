/**
 * `convert openapi`: a document each of whose paths already begins with
 * its server URL's whole path sends the paths as they are, not under that
 * path a second time. Found on Signal K server 2.23
 * (tests/real/signalk_openapi_test.ts): its radar document's server is
 * `/signalk/v2/api/vessels/self/radars` and its paths are that and paths
 * under it, so every request went to `…/radars/signalk/v2/api/…` (404). The
 * specification joins the two, as Swagger UI does; but of the 2,639
 * documents of APIs.guru's directory the 5 whose paths all begin with the
 * server's path (Ticketmaster's `/discovery/v2` and its `/discovery/v2/…`,
 * dev.to's `/api` and `/api/…`, NASA's) are all served at the paths as
 * written. One path outside it, and the server's path is added as before.
 *
 * The stand-in serves the paths as written, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = { "200": { description: "OK", content: json({ type: "object" }) } };

function document(paths: string[]): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Radar", version: "1" },
    servers: [{ url: "/signalk/v2/api/vessels/self/radars" }],
    paths: Object.fromEntries(
      paths.map((path, i) => [path, { get: { operationId: `op${i}`, responses: ok } }]),
    ),
  };
}

/** The paths asked for; the stand-in answers the written paths and 404 to any other. */
function startServer(served: string[]) {
  const asked: string[] = [];
  const stand = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    asked.push(path);
    return served.includes(path) ? Response.json({}) : new Response(null, { status: 404 });
  });
  return { ...stand, asked };
}

Deno.test("convert openapi: paths that all begin with the server's path are sent as written", async () => {
  const paths = [
    "/signalk/v2/api/vessels/self/radars",
    "/signalk/v2/api/vessels/self/radars/_providers",
  ];
  const server = startServer(paths);
  const { runs, summary } = await convertAndRunSuite(document(paths), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.deepEqual(server.asked.sort(), paths);
  assert.match(summary, /the paths already begin with it/);
});

Deno.test("convert openapi: one path outside the server's path, and the server's path is added to each", async () => {
  const paths = ["/signalk/v2/api/vessels/self/radars/x", "/other"];
  const base = "/signalk/v2/api/vessels/self/radars";
  const server = startServer(paths.map((p) => base + p));
  const { runs } = await convertAndRunSuite(document(paths), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.deepEqual(server.asked.sort(), paths.map((p) => base + p).sort());
});
