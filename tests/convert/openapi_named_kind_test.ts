/**
 * `convert openapi`: a text that picks a kind of something ("The kind of
 * metadata", a `kind` property "Name of the metadata"), with no value of
 * the document's, takes a kind the document's own words name: "the
 * SOA-EDIT metadata item". Found on PowerDNS 4.7
 * (tests/real/pdns_openapi_test.ts): its metadata kinds are listed nowhere,
 * the create sent no `kind` and the reads `metadata/string` (422 "Unsupported
 * metadata kind"), while its Zone schema says "The SOA-EDIT metadata item".
 * Only a name written as code (capitals joined by `-` or `_`) right before
 * the noun counts: "the JSON metadata" is prose, a word in backticks too
 * often an example of something else.
 * A schema's words come first: PowerDNS's rectify operation says it "does
 * not take into account the API-RECTIFY metadata", a kind its API refuses
 * to set.
 *
 * The stand-in below knows two kinds and refuses any other as PowerDNS does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });

function document(soaEdit: string, ignored = true): Record<string, unknown> {
  const metadata = {
    type: "object",
    properties: {
      kind: { type: "string", description: "Name of the metadata" },
      metadata: { type: "array", items: { type: "string" }, description: "Its values." },
    },
  };
  const kind = {
    name: "metadata_kind",
    in: "path",
    required: true,
    description: "The kind of metadata",
    schema: { type: "string" },
  };
  const zone = {
    type: "object",
    properties: {
      name: { type: "string", description: "Name of the zone" },
      soa_edit: { type: "string", description: soaEdit },
    },
  };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const ok = (schema: unknown) => ({ "200": { description: "OK", content: json(schema) } });
  return {
    openapi: "3.0.3",
    info: { title: "DNS", version: "1" },
    paths: {
      "/zone": {
        get: {
          operationId: "getZone",
          tags: ["zone"],
          // An operation's words may name a kind it ignores, one the server refuses to set.
          description: ignored ? "It does not take into account the API-RECTIFY metadata." : "",
          responses: ok(ref("Zone")),
        },
      },
      "/metadata": {
        post: {
          operationId: "createMetadata",
          tags: ["metadata"],
          requestBody: { required: true, content: json(ref("Metadata")) },
          responses: { "201": { description: "Made", content: json(ref("Metadata")) } },
        },
      },
      "/metadata/{metadata_kind}": {
        parameters: [kind],
        get: { operationId: "getMetadata", tags: ["metadata"], responses: ok(ref("Metadata")) },
        delete: { operationId: "deleteMetadata", tags: ["metadata"], responses: ok({}) },
      },
    },
    components: { schemas: { Zone: zone, Metadata: metadata } },
  };
}

const KINDS = ["SOA-EDIT", "ALSO-NOTIFY"];

/** Each metadata request as `METHOD kind`; a kind it does not know is refused (422). */
function startServer() {
  const seen: string[] = [];
  const stand = serveStandIn(async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/zone") return Response.json({ name: "a.", soa_edit: "" });
    let kind: string | undefined;
    if (url.pathname === "/metadata" && req.method === "POST") kind = (await req.json()).kind;
    const at = /^\/metadata\/([^/]+)$/.exec(url.pathname);
    if (at) kind = decodeURIComponent(at[1]);
    if (!url.pathname.startsWith("/metadata")) return new Response(null, { status: 404 });
    seen.push(`${req.method} ${kind}`);
    if (!KINDS.includes(kind ?? "")) {
      return Response.json({ error: `Unsupported metadata kind '${kind}'` }, { status: 422 });
    }
    const body = { kind, metadata: ["x"] };
    return Response.json(req.method === "DELETE" ? {} : body, {
      status: req.method === "POST" ? 201 : 200,
    });
  });
  return { ...stand, seen };
}

Deno.test("convert openapi: a kind the document names in its own words is the one sent, in a body and a path", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(
    document("The SOA-EDIT metadata item, default-soa-edit"),
    server,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.deepEqual(server.seen.sort(), ["DELETE SOA-EDIT", "GET SOA-EDIT", "POST SOA-EDIT"]);
  assert.match([...flows.values()].join("\n"), /kind: SOA-EDIT/);
});

Deno.test("convert openapi: prose or backticks before the noun, or a code name before another noun, name no kind", async () => {
  const prose = ["The JSON metadata of the zone", "Mirrors the `ALSO-NOTIFY` metadata."];
  for (const words of [...prose, "Sent in the X-SOA-EDIT header", "Plain"]) {
    const server = startServer();
    const { flows } = await convertAndRunSuite(document(words, false), server);
    const text = [...flows.values()].join("\n");
    assert.doesNotMatch(text, /kind: (?:JSON|ALSO-NOTIFY|X-SOA-EDIT)\b/, words);
    assert.doesNotMatch(text, /metadata_kind: (?:JSON|ALSO-NOTIFY|X-SOA-EDIT)\b/, words);
    // Nothing to go on: the path's kind is a placeholder the user fills in, as before.
    assert.match(text, /fill in: path parameter metadata_kind/, words);
  }
});
