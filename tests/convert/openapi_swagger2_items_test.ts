/**
 * `convert openapi` on a Swagger 2.0 document whose array schema lists its
 * `items` (JSON Schema's old tuple form, which neither 2.0 nor OpenAPI 3.0
 * allows): PowerDNS 4.7's statistics answer is `items: [StatisticItem,
 * MapStatisticItem, RingStatisticItem]` (tests/real/fixtures/pdns/). The
 * upgrade kept the list, and the `openapi:` check of a 200 the server gave
 * failed to compile ("items value must be …"), so the flow failed on a
 * correct answer. It is `items: {anyOf: […]}` now: each item is one of them.
 * The stand-in answers as PowerDNS does, on 127.0.0.1; a wrong item still
 * fails the check.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const FIXTURE = new URL("../real/fixtures/pdns/api_docs.json", import.meta.url);

/** PowerDNS's document with its server listing and statistics only, keyless. */
function document(): Record<string, unknown> {
  const doc = JSON.parse(Deno.readTextFileSync(FIXTURE));
  const keep = ["/servers", "/servers/{server_id}/statistics"];
  delete doc.security;
  delete doc.securityDefinitions;
  return { ...doc, paths: Object.fromEntries(keep.map((path) => [path, doc.paths[path]])) };
}

/** What PowerDNS answers for its statistics: items of the three kinds at once. */
const STATISTICS = [
  { name: "corrupt-packets", type: "StatisticItem", value: "0" },
  { name: "response-by-qtype", type: "MapStatisticItem", value: [{ name: "A", value: "3" }] },
  { name: "logmessages", type: "RingStatisticItem", size: 10000, value: [] },
];

async function convertAndRun(statistics: unknown) {
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/v1/servers") return Response.json([{ id: "localhost" }]);
    if (path === "/api/v1/servers/localhost/statistics") return Response.json(statistics);
    return Response.json({ error: "Not Found" }, { status: 404 });
  });
  const { runs: [run] } = await convertAndRunSuite(document(), server);
  return run;
}

Deno.test("convert openapi: a Swagger 2.0 list of items is any of them, and the answer's check passes", async () => {
  const run = await convertAndRun(STATISTICS);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.doesNotMatch(run.stdout, /items value must be/);
});

Deno.test("convert openapi: an item that is none of a Swagger 2.0 list's schemas still fails the check", async () => {
  const run = await convertAndRun([...STATISTICS, { name: 7, value: "0" }]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /get_stats: \$\.json: .*violation/);
});
