/**
 * `convert openapi`: a text parameter its description calls a domain name
 * takes the document's own sample of a domain name, in the form the
 * document writes one. Found on PowerDNS 4.7 (tests/real/pdns_openapi_test.ts):
 * `PUT /servers/{server_id}/cache/flush?domain=` is "The domain name to
 * flush from the cache", with no example, and was sent `string` (422 "DNS
 * Name 'string' is not canonical"); the document's zone `name` quotes
 * `e.g. “example.com.”` ("MUST have a trailing dot"), the form the server
 * takes. With no such sample in the document, `example.com`.
 *
 * The stand-in below refuses a name that is not canonical as PowerDNS does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });

function document(sample: boolean): Record<string, unknown> {
  const zone = {
    type: "object",
    properties: {
      name: {
        type: "string",
        description: sample
          ? "Name of the zone (e.g. “example.com.”) MUST have a trailing dot"
          : "Name of the zone",
      },
    },
  };
  return {
    openapi: "3.0.3",
    info: { title: "DNS", version: "1" },
    paths: {
      "/zones": {
        get: {
          operationId: "listZones",
          responses: {
            "200": { description: "OK", content: json({ type: "array", items: zone }) },
          },
        },
      },
      "/cache/flush": {
        put: {
          operationId: "flushCache",
          parameters: [{
            name: "domain",
            in: "query",
            required: true,
            description: "The domain name to flush from the cache",
            schema: { type: "string" },
          }],
          responses: { "200": { description: "Flushed" } },
        },
      },
    },
  };
}

/** Each flush's `domain`; one that is no canonical DNS name is refused (422). */
function startServer() {
  const flushed: string[] = [];
  const stand = serveStandIn((req) => {
    const url = new URL(req.url);
    if (url.pathname === "/zones") return Response.json([]);
    if (url.pathname === "/cache/flush" && req.method === "PUT") {
      const domain = url.searchParams.get("domain") ?? "";
      flushed.push(domain);
      if (!/^([a-z0-9-]+\.)+$/i.test(domain)) {
        return Response.json({ error: `DNS Name '${domain}' is not canonical` }, { status: 422 });
      }
      return Response.json({ count: 0, result: "Flushed cache." });
    }
    return new Response(null, { status: 404 });
  });
  return { ...stand, flushed };
}

Deno.test("convert openapi: a parameter described as a domain name takes the document's own sample of one", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(document(true), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(server.flushed.length, 1);
  assert.match(server.flushed[0], /^example\.com(-[0-9a-f]{8})?\.$/);
});

Deno.test("convert openapi: with no sample of a domain name in the document, a domain name is example.com", async () => {
  const server = startServer();
  const { flows } = await convertAndRunSuite(document(false), server);
  const flow = [...flows.values()].find((text) => text.includes("/cache/flush"))!;
  assert.match(flow, /domain: example\.com(-\$\{RANDOM\.HEX_8\})?$/m);
});
