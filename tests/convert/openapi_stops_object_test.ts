/**
 * An operation whose path ends in the act alone (`/restart`) stops the
 * server only when its words name no other object of the act: Signal K's
 * course API has `PUT /course/restart`, "Restart course calculations.",
 * which `convert openapi` left out as if it restarted the server (never
 * sent). The words decide when they name what is restarted; the path
 * alone when they name nothing (Spring Boot's "Actuator web endpoint
 * 'restart'").
 */
import assert from "node:assert/strict";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { stopsServer } from "../../lib/convert/openapi/stops.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** Whether `method path` with `node` is taken for one that stops the server. */
function stops(path: string, node: Record<string, unknown>, method = "post"): boolean {
  const [op] = operationsOf({ paths: { [path]: { [method]: node } } });
  return stopsServer(op);
}

Deno.test("convert openapi sends a restart whose summary names what it restarts, not the server", async () => {
  const doc = {
    openapi: "3.0.0",
    info: { title: "Course", version: "1" },
    paths: {
      "/course": {
        get: { responses: { "200": { description: "The course" } } },
      },
      "/course/restart": {
        put: {
          summary: "Restart course calculations.",
          description:
            "Sets previousPoint value to current vessel position and bases calculations on update.",
          responses: { "200": { description: "OK" } },
        },
      },
    },
  };
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json({ state: "COMPLETED" });
  });
  const { summary, runs } = await convertAndRunSuite(doc, server);
  assert.doesNotMatch(summary, /stops the server/);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.ok(seen.includes("PUT /course/restart"), seen.join(", "));
});

Deno.test("a path ending in the act is the server's own unless the words name another object", () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["/course/restart", { summary: "Restart course calculations." }, false],
    ["/jobs/restart", { summary: "Restarts the failed jobs" }, false],
    ["/indexer/shutdown", { description: "Shut down the indexer worker pool." }, false],
    ["/actuator/restart", { summary: "Actuator web endpoint 'restart'" }, true],
    ["/restart", {}, true],
    ["/admin/restart", { summary: "Restart the server" }, true],
    ["/system/restart", { summary: "Restart", description: "Restarts the service." }, true],
    ["/api/admin/maintenance", { summary: "Enabled/disabled maintenance mode" }, true],
  ];
  for (const [path, node, expected] of cases) {
    assert.equal(stops(path, node), expected, `${path} ${JSON.stringify(node)}`);
  }
});
