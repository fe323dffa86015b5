/**
 * `convert openapi`: a request body whose schema says nothing of what it
 * requires. Found on PowerDNS 4.7 (tests/real/pdns_openapi_test.ts): its
 * Swagger 2.0 `Zone` lists no `required` at all, and the create sent `{}`
 * (422 "Key 'name' not present"), so the 18 operations on a zone never ran.
 * The document says what the server wants all the same, in other words:
 * the zone's `name` is shown in its description (`e.g. “example.com.”`,
 * "MUST have a trailing dot"), and its `kind` is an `enum`. So the body
 * sends the description's sample, made the run's own before its closing
 * dot (each flow that copies the create, and a second run, makes its own
 * zone), and the enum's first value; still nothing else.
 *
 * The document is PowerDNS's own, served by it at `/api/docs` (kept in
 * tests/real/fixtures/pdns/), cut to its zone operations; the stand-in below
 * refuses as PowerDNS does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const FIXTURE = new URL("../real/fixtures/pdns/api_docs.json", import.meta.url);

/**
 * PowerDNS's document with its zone operations only (reads, the create and the delete; of the
 * cryptokeys, the listing, so a second flow copies the create), keyless.
 */
function document(): Record<string, unknown> {
  const doc = JSON.parse(Deno.readTextFileSync(FIXTURE));
  const keep = [
    "/servers",
    "/servers/{server_id}/zones",
    "/servers/{server_id}/zones/{zone_id}",
    "/servers/{server_id}/zones/{zone_id}/cryptokeys",
  ];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const path of keep) {
    const item = doc.paths[path];
    paths[path] = Object.fromEntries(
      Object.entries(item).filter(([method]) =>
        method === "get" || (!path.endsWith("/cryptokeys") && ["post", "delete"].includes(method))
      ),
    );
  }
  delete doc.security;
  delete doc.securityDefinitions;
  return { ...doc, paths };
}

/** Refuses a zone as PowerDNS 4.7 does; records each create's body. */
function startServer() {
  const zones = new Set<string>();
  const creates: Record<string, unknown>[] = [];
  const error = (status: number, error: string) => Response.json({ error }, { status });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const route = `${req.method} ${path}`;
    if (route === "GET /api/v1/servers") return Response.json([{ id: "localhost" }]);
    if (route === "GET /api/v1/servers/localhost/zones") {
      return Response.json([...zones].map((id) => ({ id, name: id })));
    }
    if (route === "POST /api/v1/servers/localhost/zones") {
      const zone = await req.json();
      creates.push(zone);
      if (typeof zone.name !== "string") {
        return error(422, "Key 'name' not present or not a String");
      }
      if (typeof zone.kind !== "string") {
        return error(422, "Key 'kind' not present or not a String");
      }
      if (!zone.name.endsWith(".")) return error(422, `DNS Name '${zone.name}' is not canonical`);
      if (!["Native", "Master", "Slave", "Producer", "Consumer"].includes(zone.kind)) {
        return error(422, "ZoneKind unknown");
      }
      if (zones.has(zone.name)) return error(409, "Conflict");
      zones.add(zone.name);
      return Response.json({ id: zone.name, name: zone.name, kind: zone.kind }, { status: 201 });
    }
    const m = /^\/api\/v1\/servers\/localhost\/zones\/([^/]+)(\/\w+)?$/.exec(path);
    if (!m || !zones.has(decodeURIComponent(m[1]))) return error(404, "Not Found");
    if (req.method === "DELETE") {
      zones.delete(decodeURIComponent(m[1]));
      return new Response(null, { status: 204 });
    }
    return Response.json(m[2] ? [] : { id: m[1] });
  });
  return { ...stand, creates };
}

Deno.test("convert openapi: a body whose schema requires nothing sends the description's sample, the run's own, and the enum", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
  // Both runs pass: every flow's zone was created, read and (in the zones flow) deleted.
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const names = server.creates.map((z) => String(z.name));
  // Two flows make a zone (zones, zonecryptokey), twice: four zones of the sample's form.
  assert.equal(names.length, 4, JSON.stringify(server.creates));
  for (const name of names) assert.match(name, /^example\.com-[0-9a-f]{8}\.$/);
  assert.equal(new Set(names).size, 4);
  // The enum's first value; nothing the document gives no value for (serial, masters, …).
  for (const zone of server.creates) assert.deepEqual(Object.keys(zone).sort(), ["kind", "name"]);
  assert.equal(server.creates[0].kind, "Native");
  assert.match(flows.get("zones.yaml")!, /name: example\.com-\$\{RANDOM\.HEX_8\}\.$/m);
});
