/**
 * `convert openapi`: a text with no value of the document's whose
 * description lists, in words, the values it takes ("Must be REPLACE or
 * DELETE", "one of “all”, “zone”") takes the first of them. Found on
 * PowerDNS 4.7 (tests/real/pdns_openapi_test.ts): an RRSet's `changetype`
 * "Must be REPLACE or DELETE" was sent `string` (422), as was its search's
 * `object_type`, "one of “all”, “zone”, “record”, “comment”". A bare word
 * counts only in capitals: "Must be positive or zero" lists no value.
 *
 * The stand-in below refuses other values as PowerDNS does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });

const rrset = {
  type: "object",
  required: ["changetype", "label"],
  properties: {
    changetype: {
      type: "string",
      description:
        "MUST be added when updating the RRSet. Must be REPLACE or DELETE. With DELETE, …",
    },
    // Words that list no value: a value is made as before.
    label: { type: "string", description: "Must be positive or zero in length." },
  },
};

const document = {
  openapi: "3.0.3",
  info: { title: "DNS", version: "1" },
  paths: {
    "/rrsets": {
      patch: {
        operationId: "patchRRSets",
        requestBody: { required: true, content: json(rrset) },
        responses: { "204": { description: "Changed" } },
      },
    },
    "/search": {
      get: {
        operationId: "search",
        parameters: [{
          name: "object_type",
          in: "query",
          required: true,
          description: "Type of data to search for, one of “all”, “zone”, “record”, “comment”",
          schema: { type: "string" },
        }],
        responses: { "200": { description: "Found", content: json({ type: "array" }) } },
      },
    },
  },
};

/** What each request sent; other values than the listed ones are refused (422). */
function startServer() {
  const sent: unknown[] = [];
  const stand = serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/rrsets" && req.method === "PATCH") {
      const body = await req.json();
      sent.push(body);
      if (!["REPLACE", "DELETE"].includes(body.changetype)) {
        return Response.json({ error: `Unknown changetype '${body.changetype}'` }, { status: 422 });
      }
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/search") {
      const type = url.searchParams.get("object_type");
      sent.push(type);
      if (!["all", "zone", "record", "comment"].includes(type ?? "")) {
        return Response.json({ error: `'${type}' is not a valid object_type` }, { status: 422 });
      }
      return Response.json([]);
    }
    return new Response(null, { status: 404 });
  });
  return { ...stand, sent };
}

Deno.test("convert openapi: a text whose description lists the values it takes sends the first", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(server.sent.length, 2);
  const body = server.sent.find((s) => typeof s === "object") as Record<string, unknown>;
  assert.equal(body.changetype, "REPLACE");
  assert.notEqual(body.label, "positive");
  assert.ok(server.sent.includes("all"), JSON.stringify(server.sent));
});
