/**
 * An update of a settings resource (a PUT or PATCH of a path with no
 * parameter, beside a GET of that path) sends what that GET answered
 * where the document says nothing of the value: the whole answer when it
 * documents no body at all (Homebridge UI's `PUT /api/server/port`, a
 * NestJS `@Body() body` typed `Object`, which `@nestjs/swagger` leaves
 * out: 500 without one), and, of a body it describes, each required text
 * member it gives no value for (no enum, example, default, format or
 * pattern) the read's member of that name (its `PUT /api/server/mdns-advertiser`
 * `{advertiser: string}` takes only the names its read answers: 400 for
 * a made-up one). A value the document states is sent as stated, an item
 * (a path with a parameter) and a collection (items under its path) keep
 * their made-up values, a read answering no
 * content (204) gives nothing to send back, and a write with no GET beside
 * it is sent as before.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = { "200": { description: "" } };
const get = { tags: ["Settings"], responses: ok };

const DOC = {
  openapi: "3.0.0",
  info: { title: "Hub", version: "1" },
  paths: {
    // No body documented: the whole read is sent back (PUT and PATCH alike).
    "/server/port": { get, put: { tags: ["Settings"], responses: ok } },
    "/server/limits": { get, patch: { tags: ["Settings"], responses: ok } },
    // A required text member with no stated value: the read's; a stated one: as stated.
    "/server/advertiser": {
      get,
      put: {
        tags: ["Settings"],
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["advertiser", "level", "label"],
            properties: {
              advertiser: { type: "string" },
              level: { type: "string", enum: ["low", "high"] },
              label: { type: "string", example: "main" },
            },
          }),
        },
        responses: ok,
      },
    },
    // An item keeps its made-up values; a read of no content gives nothing back.
    "/things/{id}": {
      get: { ...get, parameters: [{ name: "id", in: "path", required: true, example: "t1" }] },
      put: {
        tags: ["Settings"],
        parameters: [{ name: "id", in: "path", required: true, example: "t1" }],
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
        },
        responses: ok,
      },
    },
    // A collection (items under it) keeps its made-up values too.
    "/zones": {
      get,
      put: {
        tags: ["Settings"],
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
        },
        responses: ok,
      },
    },
    "/zones/{zone}": {
      get: { ...get, parameters: [{ name: "zone", in: "path", required: true, example: "z1" }] },
    },
    "/server/flag": {
      get: { tags: ["Settings"], responses: { "204": { description: "set" } } },
      put: { tags: ["Settings"], responses: { "204": { description: "set" } } },
    },
    // No read beside it: sent as before, with nothing.
    "/server/name": { put: { tags: ["Settings"], responses: ok } },
  },
};

Deno.test("an update of a settings resource sends back what its read answers where the document gives no value", async () => {
  const state: Record<string, unknown> = {
    "/server/port": { port: 51826 },
    "/server/limits": { start: 52100, end: 52150 },
    "/server/advertiser": { advertiser: "ciao", level: "low", label: "main" },
    "/things/t1": { name: "first" },
    "/zones": { name: "first" },
    "/zones/z1": { name: "z1" },
  };
  const written: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") {
      if (path === "/server/flag") return new Response(null, { status: 204 });
      return state[path] ? Response.json(state[path]) : new Response("none", { status: 404 });
    }
    const text = await req.text();
    written.push(`${req.method} ${path} ${text}`);
    if (path === "/server/flag") return new Response(null, { status: 204 });
    if (path === "/server/name") return Response.json({});
    const body = text ? JSON.parse(text) : undefined;
    if (path === "/server/advertiser" && !["ciao", "avahi"].includes(body?.advertiser)) {
      return Response.json({ message: "advertiser must be one of ciao, avahi" }, { status: 400 });
    }
    if (!body || typeof body !== "object") return new Response("no body", { status: 500 });
    return Response.json(body);
  });
  try {
    const { runs, flows } = await convertAndRunSuite(DOC, server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + [...flows.values()].join("\n"));
    const first = written.slice(0, written.length / 2).sort();
    assert.equal(first.length, 7, written.join("\n"));
    assert.equal(first[0], 'PATCH /server/limits {"start":52100,"end":52150}');
    assert.equal(
      first[1],
      'PUT /server/advertiser {"advertiser":"ciao","level":"low","label":"main"}',
    );
    assert.equal(first[2], "PUT /server/flag ");
    assert.equal(first[3], "PUT /server/name ");
    assert.equal(first[4], 'PUT /server/port {"port":51826}');
    // The item's name is made up, as before (not the read's "first").
    assert.match(first[5], /^PUT \/things\/t1 \{"name":"(?!first")[^"]+"\}$/);
    assert.match(first[6], /^PUT \/zones \{"name":"(?!first")[^"]+"\}$/);
  } finally {
    await server.close();
  }
});

Deno.test("a settings read that fails gives nothing to send back: its update is skipped, not sent the error", async () => {
  // Homebridge UI's Docker start-up script: its GET answered 500 with a JSON error, which the PUT sent.
  const doc = {
    openapi: "3.0.0",
    info: { title: "Hub", version: "1" },
    paths: {
      "/server/script": { get, put: { tags: ["Settings"], responses: ok } },
      "/server/advertiser": {
        get,
        put: {
          tags: ["Settings"],
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["advertiser"],
              properties: { advertiser: { type: "string" } },
            }),
          },
          responses: ok,
        },
      },
    },
  };
  const written: string[] = [];
  const server = serveStandIn(async (req) => {
    if (req.method === "GET") {
      return Response.json({ advertiser: "error", message: "no such file" }, { status: 500 });
    }
    written.push(`${req.method} ${new URL(req.url).pathname} ${await req.text()}`);
    return Response.json({});
  });
  try {
    const { runs, flows } = await convertAndRunSuite(doc, server, { runs: 1 });
    const shown = runs[0].stdout + [...flows.values()].join("\n");
    assert.deepEqual(written, [], shown);
    assert.match(runs[0].stdout, /put_server_script\s.*skipped/i, shown);
    assert.match(runs[0].stdout, /put_server_advertiser\s.*skipped/i, shown);
  } finally {
    await server.close();
  }
});
