/**
 * `convert openapi`: two operations that each end the item one create made
 * (issue 52). etcd's gateway serves one RPC under two paths (`POST
 * /v3/lease/revoke` and `POST /v3/kv/lease/revoke`); both read the lease
 * `lease/grant` made, and the second found it revoked (404). A REST
 * document does the same with a deprecated alias of a DELETE, or an
 * archive before a delete. A flow holds a step once, so the one producer
 * fed both: now each ender after the first gets a copy of the producer of
 * its own, placed just before it; reads and updates still read the first.
 * The stand-ins refuse ending an item twice (404), as real servers do.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const int64 = { type: "string", format: "int64" };

/** A JSON body of `properties`, none required (proto3's), and a 200 answering `answer`. */
function call(properties: Record<string, unknown>, answer: Record<string, unknown>) {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  return {
    post: {
      tags: ["Lease"],
      requestBody: json({ type: "object", properties }),
      responses: { "200": { description: "ok", ...json({ type: "object", properties: answer }) } },
    },
  };
}

/** etcd's shape: a lease granted, read, and revoked under two paths. */
function leaseDocument() {
  const id = (description: string) => ({ ...int64, description });
  return {
    openapi: "3.0.3",
    info: { title: "Leases", version: "1" },
    paths: {
      "/v3/lease/grant": call({ TTL: id("TTL is the time-to-live in seconds.") }, {
        ID: id("ID is the lease ID for the granted lease."),
      }),
      "/v3/lease/timetolive": call({ ID: id("ID is the lease ID for the lease.") }, { TTL: int64 }),
      "/v3/lease/revoke": call({ ID: id("ID is the lease ID to revoke.") }, {}),
      "/v3/kv/lease/revoke": call({ ID: id("ID is the lease ID to revoke.") }, {}),
    },
  };
}

/** Leases as etcd keeps them: a revoke of one not granted, or revoked already, is a 404. */
function leaseServer() {
  const leases = new Set<string>();
  const got: [string, string][] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = await req.json();
    got.push([path, String(sent.ID)]);
    if (path === "/v3/lease/grant") {
      const ID = String(4_100_000 + got.length);
      leases.add(ID);
      return Response.json({ ID });
    }
    const ok = path === "/v3/lease/timetolive"
      ? leases.has(String(sent.ID))
      : leases.delete(String(sent.ID));
    return ok
      ? Response.json({ TTL: "60" })
      : Response.json({ error: "requested lease not found" }, { status: 404 });
  });
  return { ...server, got, leases };
}

Deno.test("convert openapi: two calls that each revoke the lease one grant made each revoke a lease of their own", async () => {
  const server = leaseServer();
  const { summary, runs, flows } = await convertAndRunSuite(leaseDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  const grants = server.got.filter(([path]) => path === "/v3/lease/grant");
  assert.equal(grants.length, 2, JSON.stringify(server.got));
  const revoked = server.got.filter(([path]) => path.endsWith("/revoke"));
  assert.equal(revoked.length, 2);
  assert.notEqual(revoked[0][1], revoked[1][1]);
  // The read reads the first lease, which the first revoke then ends.
  const read = server.got.find(([path]) => path === "/v3/lease/timetolive")!;
  assert.equal(read[1], revoked[0][1]);
  assert.equal(server.leases.size, 0);
  const [first, second] = revoked.map(([path]) => `POST ${path}`);
  assert.ok(
    summary.includes(
      `a second POST /v3/lease/grant for ${second}, which ends what ${first} ended too`,
    ),
    summary,
  );
  // The copy is a step of its own name, just before the call that reads it.
  const flow = flows.get("lease.yaml")!;
  const steps = [...flow.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
  assert.equal(steps.length, 5, flow);
  assert.equal(new Set(steps).size, 5, flow);
  const urls = [...flow.matchAll(/url: \$\{ENV\.BASE_URL\}(\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(urls.slice(3), ["/v3/lease/grant", ...revoked.slice(1).map(([path]) => path)]);
  assert.equal(urls[0], "/v3/lease/grant");
  const copy = steps[3];
  assert.match(flow, new RegExp(`ID: \\$\\{steps\\.${copy}\\.capture\\.ID\\}\\n`));
});

const integer = { type: "integer", format: "int64" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const answer = (status: string, schema: unknown) => ({
  [status]: { description: "ok", ...json(schema) },
});
const path = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

/**
 * REST's shapes: a pet archived, deleted, and deleted again under a deprecated
 * alias; a shelf the client names at its PUT, archived and deleted; a sub-resource's
 * delete (a photo: the pet lives on); a toy no operation makes (the listing's first).
 */
function restDocument() {
  const pet = { type: "object", properties: { id: integer, name: { type: "string" } } };
  const byId = (tags: string[], more: Record<string, unknown> = {}) => ({
    tags,
    parameters: [{ name: "petId", in: "path", required: true, schema: integer }],
    responses: { "204": { description: "done" } },
    ...more,
  });
  const toy = (tags: string[]) => ({
    tags,
    parameters: [path("toyId")],
    responses: { "204": { description: "gone" } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": {
        post: { tags: ["pets"], requestBody: json(pet), responses: answer("201", pet) },
      },
      "/pets/{petId}": {
        get: byId(["pets"], { responses: answer("200", pet) }),
        patch: byId(["pets"], { requestBody: json(pet), responses: answer("200", pet) }),
        delete: byId(["pets"]),
      },
      "/pets/{petId}/archive": { post: byId(["pets"]) },
      "/pets/{petId}/photo": { delete: byId(["pets"]) },
      "/v1/pets/{petId}": { delete: byId(["pets"], { deprecated: true }) },
      // What the archive left: it needs the archived pet, not a new one.
      "/archive/{petId}": { delete: byId(["pets"], { summary: "Deletes an archived pet" }) },
      "/shelves/{name}": {
        put: {
          tags: ["shelves"],
          parameters: [path("name")],
          responses: answer("201", { type: "object", properties: { name: { type: "string" } } }),
        },
        delete: {
          tags: ["shelves"],
          parameters: [path("name")],
          responses: { "204": { description: "done" } },
        },
      },
      "/shelves/{name}/archive": {
        post: {
          tags: ["shelves"],
          parameters: [path("name")],
          responses: { "204": { description: "done" } },
        },
      },
      "/toys": {
        get: {
          tags: ["toys"],
          responses: answer("200", {
            type: "array",
            items: { type: "object", properties: { id: { type: "string" } } },
          }),
        },
      },
      "/toys/{toyId}": { delete: toy(["toys"]) },
      "/v1/toys/{toyId}": { delete: toy(["toys"]) },
    },
  };
}

/**
 * Pets and shelves as a server keeps them: an archived or deleted one is ended, and ending
 * it again is refused (404); an archived one is still read, changed and has its photo removed.
 * Toys exist before the run, and any toy's delete is answered 204.
 */
function restServer() {
  const live = new Map<string, "live" | "archived">();
  const got: string[] = [];
  let made = 0;
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const sent = req.body ? await req.text() : "";
    got.push(`${req.method} ${pathname}`);
    if (req.method === "POST" && pathname === "/pets") {
      const id = ++made;
      live.set(`/pets/${id}`, "live");
      return Response.json({ ...JSON.parse(sent || "{}"), id }, { status: 201 });
    }
    if (pathname === "/toys") return Response.json([{ id: "ball" }]);
    if (pathname.startsWith("/toys/") || pathname.startsWith("/v1/toys/")) {
      return new Response(null, { status: 204 });
    }
    const archived = /^\/archive\/(\d+)$/.exec(pathname)?.[1];
    if (archived !== undefined) {
      const gone = live.get(`/pets/${archived}`) === "archived" && live.delete(`/pets/${archived}`);
      return gone ? new Response(null, { status: 204 }) : new Response(null, { status: 404 });
    }
    const item = pathname.replace(/^\/v1/, "").replace(/\/(archive|photo)$/, "");
    if (req.method === "PUT") {
      live.set(item, "live");
      return Response.json({ name: item.split("/").at(-1) }, { status: 201 });
    }
    const state = live.get(item);
    const ends = req.method === "DELETE" && !pathname.endsWith("/photo") ||
      pathname.endsWith("/archive");
    if (state === undefined || (ends && state === "archived")) {
      return Response.json({ error: `no ${item} to end` }, { status: 404 });
    }
    if (pathname.endsWith("/archive")) live.set(item, "archived");
    else if (ends) live.delete(item);
    const status = req.method === "GET" || req.method === "PATCH" ? 200 : 204;
    return status === 200 ? Response.json({ id: 1 }) : new Response(null, { status });
  });
  return { ...server, got, live };
}

Deno.test("convert openapi: a REST item deleted under two paths, or archived then deleted, is made again for each end after the first", async () => {
  const server = restServer();
  const { summary, runs, flows } = await convertAndRunSuite(restDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  const sent = (re: RegExp) => server.got.filter((r) => re.test(r));
  assert.equal(sent(/^POST \/pets$/).length, 3, server.got.join("\n"));
  // Each end is of a pet of its own; the read, the update and the photo's delete read the first.
  assert.deepEqual(sent(/^POST \/pets\/\d+\/archive$|^DELETE \/(v1\/)?pets\/\d+$/), [
    "POST /pets/1/archive",
    "DELETE /v1/pets/2",
    "DELETE /pets/3",
  ]);
  assert.deepEqual(sent(/^(GET|PATCH) \/pets\/|photo$/), [
    "GET /pets/1",
    "PATCH /pets/1",
    "DELETE /pets/1/photo",
  ]);
  // The archived pet is deleted from the archive: the first, which the archive ended.
  assert.deepEqual(sent(/^DELETE \/archive\//), ["DELETE /archive/1"]);
  assert.doesNotMatch(summary, /for DELETE \/archive/);
  assert.deepEqual([...server.live.keys()].filter((k) => k.startsWith("/pets")), []);
  for (
    const [copy, end] of [["POST /pets", "DELETE /v1/pets/{petId}"], [
      "POST /pets",
      "DELETE /pets/{petId}",
    ], ["PUT /shelves/{name}", "DELETE /shelves/{name}"]]
  ) {
    const first = copy === "POST /pets"
      ? "POST /pets/{petId}/archive"
      : "POST /shelves/{name}/archive";
    assert.ok(
      summary.includes(`a second ${copy} for ${end}, which ends what ${first} ended too`),
      summary,
    );
  }
  // The shelf the client names is made again under the run's name, then deleted.
  assert.equal(sent(/^PUT \/shelves\//).length, 2);
  assert.deepEqual(
    sent(/^(DELETE|POST) \/shelves/).map((r) => r.replace(/\/shelves\/[^/]+/, "/shelves/*")),
    [
      "POST /shelves/*/archive",
      "DELETE /shelves/*",
    ],
  );
  // What no operation makes (the listing's first toy) is the same toy in any copy: none made.
  assert.doesNotMatch(summary, /a second GET \/toys/);
  assert.equal(sent(/^GET \/toys$/).length, 1);
  assert.equal([...flows.get("pets.yaml")!.matchAll(/^ {2}- name: /gm)].length, 10);
});

Deno.test("convert openapi: a flow that reads another flow's create, and ends its item twice, makes a second of its own", async () => {
  const order = { type: "object", properties: { id: integer } };
  const byId = (tags: string[]) => ({
    tags,
    parameters: [{ name: "orderId", in: "path", required: true, schema: integer }],
    responses: { "204": { description: "done" } },
  });
  const doc = {
    openapi: "3.0.3",
    info: { title: "Orders", version: "1" },
    paths: {
      "/orders": { post: { tags: ["orders"], responses: answer("201", order) } },
      "/orders/{orderId}": {
        get: { ...byId(["orders"]), responses: answer("200", order) },
        delete: byId(["admin"]),
      },
      "/orders/{orderId}/cancel": { post: byId(["admin"]) },
    },
  };
  const open = new Set<number>();
  const ended: string[] = [];
  const server = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/orders") {
      const id = 500 + open.size + ended.length;
      open.add(id);
      return Response.json({ id }, { status: 201 });
    }
    const id = Number(/^\/orders\/(\d+)/.exec(pathname)?.[1]);
    if (req.method === "GET") return Response.json({ id }, { status: open.has(id) ? 200 : 404 });
    if (!open.delete(id)) return Response.json({ error: `no order ${id}` }, { status: 404 });
    ended.push(`${req.method} ${pathname}`);
    return new Response(null, { status: 204 });
  });
  const { summary, runs, flows } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(
    summary.includes(
      "a second POST /orders for DELETE /orders/{orderId}, which ends what POST /orders/{orderId}/cancel ended too",
    ),
    summary,
  );
  const admin = flows.get("admin.yaml")!;
  const urls = [...admin.matchAll(/url: \$\{ENV\.BASE_URL\}(\S+)$/gm)].map((m) => m[1]);
  const steps = [...admin.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
  // The copied create, the cancel of its order; a second create, the delete of that one.
  assert.deepEqual(urls, [
    "/orders",
    `/orders/\${steps.${steps[0]}.capture.orderId}/cancel`,
    "/orders",
    `/orders/\${steps.${steps[2]}.capture.orderId}`,
  ]);
  assert.notEqual(steps[0], steps[2]);
  assert.equal(ended.length, 2);
  assert.equal(open.size, 1); // the order flow's own, read and left
});
