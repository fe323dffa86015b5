/**
 * `convert openapi`: an item the client names in its create's body. Found
 * on PowerDNS 4.7 (tests/real/pdns_openapi_test.ts): `POST /autoprimaries`
 * takes `{ip, nameserver, account}` and answers 201 with no body, and the
 * item is `DELETE /autoprimaries/{ip}/{nameserver}`. The schema requires
 * nothing, so the create sent `{}` (422 "Key 'nameserver' not present"),
 * and `{ip}` and `{nameserver}` were placeholders to fill in "with one that
 * exists". The body's properties of the path's parameter names are the
 * evidence: the run names the item, one var per parameter sent in the body
 * and in the path, made anew each run.
 *
 * The document is PowerDNS's own (tests/real/fixtures/pdns/), cut to its
 * autoprimary operations; the stand-in refuses as PowerDNS does, and a
 * delete of an item that does not exist, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const FIXTURE = new URL("../real/fixtures/pdns/api_docs.json", import.meta.url);

/** PowerDNS's document with its server listing and autoprimary operations only, keyless. */
function document(): Record<string, unknown> {
  const doc = JSON.parse(Deno.readTextFileSync(FIXTURE));
  const keep = [
    "/servers",
    "/servers/{server_id}/autoprimaries",
    "/servers/{server_id}/autoprimaries/{ip}/{nameserver}",
  ];
  delete doc.security;
  delete doc.securityDefinitions;
  return { ...doc, paths: Object.fromEntries(keep.map((path) => [path, doc.paths[path]])) };
}

/** Autoprimaries as PowerDNS keeps them; each create's body and each delete's path. */
function startServer() {
  const known = new Set<string>();
  const creates: Record<string, unknown>[] = [];
  const deletes: string[] = [];
  const error = (status: number, error: string) => Response.json({ error }, { status });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const base = "/api/v1/servers/localhost/autoprimaries";
    if (path === "/api/v1/servers") return Response.json([{ id: "localhost" }]);
    if (path === base && req.method === "GET") {
      return Response.json([...known].map((k) => JSON.parse(k)));
    }
    if (path === base && req.method === "POST") {
      const body = await req.json();
      creates.push(body);
      for (const key of ["ip", "nameserver"]) {
        if (typeof body[key] !== "string") return error(422, `Key '${key}' not present`);
      }
      const key = JSON.stringify({ ip: body.ip, nameserver: body.nameserver });
      if (known.has(key)) return error(409, "Conflict");
      known.add(key);
      return new Response(null, { status: 201 });
    }
    const m = new RegExp(`^${base}/([^/]+)/([^/]+)$`).exec(path);
    if (m && req.method === "DELETE") {
      deletes.push(`${m[1]}/${m[2]}`);
      const key = JSON.stringify({ ip: m[1], nameserver: m[2] });
      return known.delete(key) ? new Response(null, { status: 204 }) : error(404, "Not Found");
    }
    return error(404, "Not Found");
  });
  return { ...stand, creates, deletes };
}

Deno.test("convert openapi: an item its create's body names is the run's own, in the body and in its path", async () => {
  const server = startServer();
  const { summary, runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  // Nothing to fill in: the run names the autoprimary.
  assert.match(summary, /^No placeholders to fill in\.$/m);
  assert.equal(server.creates.length, 2);
  for (const body of server.creates) {
    assert.match(String(body.ip), /^ip-[0-9a-f]{8}$/);
    assert.match(String(body.nameserver), /^nameserver-[0-9a-f]{8}$/);
  }
  // Each run deleted the one it made: its own names, a second run's new ones.
  assert.deepEqual(server.deletes, server.creates.map((b) => `${b.ip}/${b.nameserver}`));
  assert.notEqual(server.deletes[0], server.deletes[1]);
  assert.match(
    flows.get("autoprimary.yaml")!,
    /autoprimaries\/\$\{vars\.ip\}\/\$\{vars\.nameserver\}$/m,
  );
});
