/**
 * `convert openapi`: a body whose schema requires nothing sends the
 * property the operation's summary says it changes. Found on PowerDNS 4.7
 * (tests/real/pdns_openapi_test.ts): `PUT /zones/{zone_id}/cryptokeys/{cryptokey_id}`
 * is "This method (de)activates a key", its `Cryptokey` lists no `required`
 * at all, and `active` (a boolean, left out as a switch) is what the server
 * needs (422 "Key 'active' not present"). When a schema says nothing of
 * what it needs, the operation's own words are the evidence: `active` is
 * sent, `published` (a switch the summary does not name) is not.
 *
 * The stand-in below refuses as PowerDNS does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const key = {
  type: "object",
  properties: {
    id: { type: "integer", readOnly: true },
    keytype: { type: "string", enum: ["ksk", "zsk"] },
    active: { type: "boolean", description: "Whether or not the key is in active use" },
    published: { type: "boolean", description: "Whether or not the DNSKEY record is published" },
  },
};

function document(summary: string): Record<string, unknown> {
  const body = { required: true, content: json(key) };
  return {
    openapi: "3.0.3",
    info: { title: "Keys", version: "1" },
    paths: {
      "/keys": {
        post: {
          operationId: "createKey",
          summary: "Creates a key",
          requestBody: body,
          responses: { "201": { description: "Created", content: json(key) } },
        },
      },
      "/keys/{keyId}": {
        parameters: [{ name: "keyId", in: "path", required: true, schema: { type: "integer" } }],
        put: {
          operationId: "switchKey",
          summary,
          requestBody: body,
          responses: { "204": { description: "OK" } },
        },
      },
    },
  };
}

/** Keys made, and each PUT's body; a PUT without `active` is refused as PowerDNS does. */
function startServer() {
  const puts: Record<string, unknown>[] = [];
  let next = 1;
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    if (path === "/keys" && req.method === "POST") {
      return Response.json({ id: next++, keytype: body.keytype, active: false }, { status: 201 });
    }
    if (/^\/keys\/\d+$/.test(path) && req.method === "PUT") {
      puts.push(body);
      if (typeof body.active !== "boolean") {
        return Response.json({ error: "Key 'active' not present" }, { status: 422 });
      }
      return new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  });
  return { ...stand, puts };
}

Deno.test("convert openapi: a body whose schema requires nothing sends the property the operation's summary names", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(
    document("This method (de)activates a key from zone_name specified by cryptokey_id"),
    server,
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.deepEqual(server.puts, [{ keytype: "ksk", active: true }]);
});

Deno.test("convert openapi: a switch no summary names is still left out of a body that requires nothing", async () => {
  const server = startServer();
  const { runs } = await convertAndRunSuite(document("Modifies a key"), server);
  assert.notEqual(runs[0].code, 0);
  assert.deepEqual(server.puts, [{ keytype: "ksk" }]);
});
