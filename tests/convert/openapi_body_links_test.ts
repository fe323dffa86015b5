/**
 * `convert openapi`: a request body property that names another resource is
 * read from that resource's create, as a path parameter is (RESTler's
 * producer–consumer inference). Seen on Swagger's Petstore (`POST
 * /store/order {petId}` after `POST /pet`) and etcd's gateway (`lease/revoke
 * {ID}`, "ID is the lease ID to revoke", after `lease/grant`, which answers
 * `ID`): the body sent a literal (`petId: 1`, or nothing), which names no
 * item of a fresh server (404). The stand-ins refuse an order of a pet they
 * did not make, and a revoke of a lease they did not grant.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const integer = { type: "integer", format: "int64" };

/** A JSON request body of `properties`, all of `required`. */
function body(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return {
    required: true,
    content: { "application/json": { schema: { type: "object", required, properties } } },
  };
}

/** A 201 answering an object of `properties`. */
function created(properties: Record<string, unknown>) {
  return {
    "201": {
      description: "made",
      content: { "application/json": { schema: { type: "object", properties } } },
    },
  };
}

/** Pets (tag `pet`) and what names them (tag `store`), each of the four ways a body may. */
function petDocument() {
  return {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": {
        post: {
          tags: ["pet"],
          operationId: "createPet",
          requestBody: body({ name: { type: "string" } }),
          responses: created({ id: integer, name: { type: "string" } }),
        },
      },
      "/pets/{petId}": {
        get: {
          tags: ["pet"],
          operationId: "getPet",
          parameters: [{ name: "petId", in: "path", required: true, schema: integer }],
          responses: { "200": created({ id: integer })["201"] },
        },
      },
      "/orders": {
        post: {
          tags: ["store"],
          operationId: "placeOrder",
          requestBody: body({ petId: integer, quantity: { type: "integer" } }),
          responses: created({ id: integer, petId: integer }),
        },
      },
      "/adoptions": {
        post: {
          tags: ["store"],
          operationId: "adopt",
          requestBody: body({
            adoption: { type: "object", required: ["pet_id"], properties: { pet_id: integer } },
          }),
          responses: created({ id: integer }),
        },
      },
      "/baskets": {
        post: {
          tags: ["store"],
          operationId: "fillBasket",
          requestBody: body({ petIds: { type: "array", items: integer } }),
          responses: created({ id: integer }),
        },
      },
      "/visits": {
        post: {
          tags: ["store"],
          operationId: "visit",
          // The document gives the pet (an enum); no create makes an owner: both as generated.
          requestBody: body({ petId: { type: "integer", enum: [7] }, ownerId: integer }),
          responses: created({ id: integer }),
        },
      },
    },
  };
}

/** Pets as a server keeps them; what names one it did not make is refused (404). */
function petServer(failCreate = false) {
  const pets = new Set<number>();
  const got = new Map<string, Record<string, unknown>[]>();
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const pet = Number(/^\/pets\/(\d+)$/.exec(path)?.[1]);
    if (req.method === "GET") {
      return Response.json({ id: pet }, { status: pets.has(pet) ? 200 : 404 });
    }
    const sent = await req.json();
    got.set(path, [...got.get(path) ?? [], sent]);
    if (path === "/pets") {
      if (failCreate) return Response.json({ error: "down" }, { status: 500 });
      const id = 100 + pets.size;
      pets.add(id);
      return Response.json({ id, name: sent.name }, { status: 201 });
    }
    const named = path === "/orders"
      ? [sent.petId]
      : path === "/adoptions"
      ? [sent.adoption?.pet_id]
      : path === "/baskets"
      ? sent.petIds
      : [];
    if (!Array.isArray(named) || !named.every((id) => pets.has(id))) {
      return Response.json({ error: `no pet ${JSON.stringify(named)}` }, { status: 404 });
    }
    return Response.json({ id: 1, petId: sent.petId }, { status: 201 });
  });
  return { ...stand, got };
}

Deno.test("convert openapi: a body property naming a pet is the pet its create made, in every flow that sends it", async () => {
  const server = petServer();
  const { summary, runs, flows } = await convertAndRunSuite(petDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  for (
    const line of [
      "petId of POST /orders ← POST /pets $.json.id",
      "adoption.pet_id of POST /adoptions ← POST /pets $.json.id",
      "petIds[] of POST /baskets ← POST /pets $.json.id",
    ]
  ) {
    assert.ok(summary.includes(line), summary);
  }
  assert.doesNotMatch(summary, /of POST \/visits/);
  // The store's flow makes its own pet first: a copy of the pet flow's create.
  const store = flows.get("store.yaml")!;
  const url = (path: string) => store.indexOf(`url: \${ENV.BASE_URL}${path}\n`);
  assert.ok(url("/pets") >= 0 && url("/pets") < url("/orders"), store);
  const pets = server.got.get("/pets")!.length;
  assert.equal(pets, 2);
  assert.equal(server.got.get("/orders")![0].petId, 100 + pets - 1);
  assert.deepEqual(server.got.get("/baskets")![0].petIds, [100 + pets - 1]);
  assert.equal(
    (server.got.get("/adoptions")![0].adoption as { pet_id: number }).pet_id,
    100 + pets - 1,
  );
  // What the document gives, or no create makes, is sent as before.
  assert.equal(server.got.get("/visits")![0].petId, 7);
  assert.equal(typeof server.got.get("/visits")![0].ownerId, "number");
});

Deno.test("convert openapi: a body that names a pet is not sent when no pet was made, and the run says why", async () => {
  const server = petServer(true);
  const { runs } = await convertAndRunSuite(petDocument(), server);
  assert.notEqual(runs[0].code, 0);
  for (const path of ["/orders", "/adoptions", "/baskets"]) {
    assert.equal(server.got.get(path), undefined);
  }
  assert.match(runs[0].stdout + runs[0].stderr, /place_order[^\n]*skipped[^\n]*create_pet/i);
  assert.equal(server.got.get("/visits")?.length, 1);
});

/** etcd's shape: a gateway's functions, every one a POST, proto3 requiring nothing. */
function leaseDocument() {
  const text = (description: string) => ({ type: "string", format: "int64", description });
  const call = (props: Record<string, unknown>, answer: Record<string, unknown>) => ({
    post: { requestBody: body(props, []), responses: { "200": created(answer)["201"] } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Leases", version: "1" },
    paths: {
      "/v3/lease/grant": call({ TTL: text("TTL is the advisory time-to-live in seconds.") }, {
        ID: text("ID is the lease ID for the granted lease."),
      }),
      "/v3/lease/revoke": call({ ID: text("ID is the lease ID to revoke.") }, {}),
      "/v3/kv/put": call({
        key: { type: "string", description: "key is the key to put." },
        lease: text("lease is the lease ID to associate with the key."),
      }, {}),
    },
  };
}

Deno.test("convert openapi: an RPC call's id a description calls the lease ID is the lease an earlier call granted", async () => {
  const leases = new Set<string>();
  const got = new Map<string, Record<string, unknown>>();
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = await req.json();
    got.set(path, sent);
    if (path === "/v3/lease/grant") {
      const ID = String(7_587_000 + leases.size);
      leases.add(ID);
      return Response.json({ ID });
    }
    if (path === "/v3/lease/revoke" && !leases.delete(String(sent.ID))) {
      return Response.json({ error: "requested lease not found" }, { status: 404 });
    }
    return Response.json({});
  });
  const { summary, runs } = await convertAndRunSuite(leaseDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(
    summary.includes("ID of POST /v3/lease/revoke ← POST /v3/lease/grant $.json.ID"),
    summary,
  );
  assert.equal(got.get("/v3/lease/revoke")?.ID, "7587000");
  // A put may take a lease, but needs none: what it sends is unchanged.
  assert.equal(got.get("/v3/kv/put")?.lease, undefined);
});

Deno.test("convert openapi: Petstore's optional Order.petId, which the document shows an example of, is the pet POST /pet made", async () => {
  const pet = {
    type: "object",
    properties: { id: { ...integer, example: 10 }, name: { type: "string", example: "doggie" } },
  };
  const order = {
    type: "object",
    properties: {
      id: { ...integer, example: 10 },
      petId: { ...integer, example: 198772 },
      quantity: { type: "integer", format: "int32", example: 7 },
      status: { type: "string", enum: ["placed", "approved"], example: "approved" },
    },
  };
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const doc = {
    openapi: "3.0.3",
    info: { title: "Petstore", version: "1" },
    paths: {
      "/pet": {
        post: {
          tags: ["pet"],
          requestBody: json(pet),
          responses: { "200": { description: "ok", ...json(pet) } },
        },
      },
      "/store/order": {
        post: {
          tags: ["store"],
          requestBody: json(order),
          responses: { "200": { description: "ok", ...json(order) } },
        },
      },
    },
  };
  const pets = new Set<number>();
  const orders: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const sent = await req.json();
    if (new URL(req.url).pathname === "/pet") {
      const id = Number(sent.id ?? 10);
      pets.add(id);
      return Response.json({ ...sent, id });
    }
    orders.push(sent);
    return pets.has(sent.petId)
      ? Response.json(sent)
      : Response.json({ message: "no such pet" }, { status: 404 });
  });
  const { summary, runs } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.ok(summary.includes("petId of POST /store/order ← POST /pet $.json.id"), summary);
  assert.equal(orders.length, 1);
  assert.ok(pets.has(orders[0].petId as number), JSON.stringify(orders));
});

Deno.test("convert openapi: a create that documents a 409 is not copied into another flow for a body id, where it made its item twice; nor is the rest of that body linked", async () => {
  const segment = {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string", example: "beta-users" } },
  };
  const doc = {
    openapi: "3.0.3",
    info: { title: "Segments", version: "1" },
    paths: {
      "/segments": {
        post: {
          tags: ["segments"],
          requestBody: { required: true, content: { "application/json": { schema: segment } } },
          responses: { ...created({ id: integer }), "409": { description: "the name exists" } },
        },
      },
      "/segments/{id}": {
        get: {
          tags: ["segments"],
          parameters: [{ name: "id", in: "path", required: true, schema: integer }],
          responses: { "200": created({ id: integer })["201"] },
        },
      },
      "/strategies": {
        post: {
          tags: ["rollout"],
          requestBody: body({ name: { type: "string" } }),
          responses: created({ id: integer }),
        },
      },
      "/assignments": {
        post: {
          tags: ["rollout"],
          requestBody: body({ segmentId: integer, strategyId: integer }),
          responses: created({ id: integer }),
        },
      },
    },
  };
  const names: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") return Response.json({ id: Number(path.split("/").at(-1)) });
    const sent = await req.json();
    if (path !== "/segments") return Response.json({ id: 1 }, { status: 201 });
    if (names.includes(sent.name)) return Response.json({ error: "exists" }, { status: 409 });
    names.push(sent.name);
    return Response.json({ id: names.length }, { status: 201 });
  });
  const { summary, runs } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  // Half linked, the assignment would put the one example segment that exists on a real strategy.
  assert.doesNotMatch(summary, /(segmentId|strategyId) of POST \/assignments/);
  assert.deepEqual(names, ["beta-users"]);
});
