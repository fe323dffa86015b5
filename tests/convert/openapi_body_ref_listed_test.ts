/**
 * `convert openapi`: a request body property whose schema is the very
 * named schema (`$ref`) a listing's items are addressed by. Found on Mocks
 * Server's admin API: `POST /mock/custom-route-variants` takes
 * `{id: RouteVariantId}`, and `GET /mock/variants` lists variants whose
 * `id` is a `RouteVariantId` (each the handle of `/mock/variants/{id}`);
 * the run sent the body's example (`get-user:2`), a variant of the
 * document's own example server that no fresh server has (400). The value
 * is the listing's first item's, read before the call, as for the read of
 * a listed item. A create of the listed thing itself (which makes that id),
 * a property of another named schema the items also hold (a colour, not
 * what an item is addressed by), and a property neither required nor
 * shown in the body's example keep what they had. The class: an array of
 * the type is sent the one item, a `$ref` wrapped in a one-part `allOf`
 * (to describe it) is the same type, a listing may wrap its items
 * (`{lamps: [..]}`), and a Swagger 2.0 document's `#/definitions/` are
 * named schemas too.
 *
 * The stand-in server below answers as the admin API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown, example?: unknown) => ({
  "application/json": example === undefined ? { schema } : { schema, example },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: unknown) => ({ "200": { description: "OK", content: json(schema) } });
const done = { "204": { description: "Done" } };

/** Switches listed (and made); an override names one by its `SwitchKey`. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.1",
    info: { title: "Switchboard", version: "1" },
    paths: {
      "/switches": {
        get: { responses: ok({ type: "array", items: ref("Switch") }) },
        post: {
          requestBody: { content: json(ref("Switch"), { id: "porch:on", label: "Porch" }) },
          responses: { "201": { description: "Made", content: json(ref("Switch")) } },
        },
      },
      "/switches/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok(ref("Switch")),
        },
      },
      "/overrides": {
        get: { responses: ok({ type: "array", items: ref("SwitchKey") }) },
        post: {
          requestBody: {
            content: json({
              properties: { key: ref("SwitchKey"), color: ref("Color"), spare: ref("SwitchKey") },
            }, { key: "lamp:on", color: "blue" }),
          },
          responses: { ...done, "400": { description: "No such switch" } },
        },
        delete: { responses: done },
      },
    },
    components: {
      schemas: {
        SwitchKey: { type: "string", description: "A switch and its state joined with ':'" },
        Color: { type: "string" },
        Switch: {
          type: "object",
          properties: { id: ref("SwitchKey"), label: { type: "string" }, color: ref("Color") },
        },
      },
    },
  };
}

/** Two switches at start; an override of any other key is refused (400), as the admin API does. */
function switchboard() {
  const seeded = ["hall:on", "hall:off"];
  const switches = seeded.map((id) => ({ id, label: "Hall", color: "red" }));
  let overrides: string[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET" && pathname === "/switches") return Response.json(switches);
    if (req.method === "GET" && pathname.startsWith("/switches/")) {
      const found = switches.find((s) => s.id === decodeURIComponent(pathname.slice(10)));
      return found ? Response.json(found) : Response.json({}, { status: 404 });
    }
    if (req.method === "GET") return Response.json(overrides);
    if (req.method === "DELETE") overrides = [];
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    const sent = await req.json();
    if (pathname === "/switches") {
      // A switch made with the id of one there at start is a conflict.
      if (seeded.includes(sent.id)) return Response.json({}, { status: 409 });
      if (!switches.some((s) => s.id === sent.id)) switches.push(sent);
      return Response.json(sent, { status: 201 });
    }
    if (!switches.some((s) => s.id === sent.key) || "spare" in sent) {
      return Response.json({ message: `Switch ${sent.key} was not found` }, { status: 400 });
    }
    overrides.push(sent.key);
    return new Response(null, { status: 204 });
  });
}

Deno.test("a body property of the named schema a listing's items are addressed by takes the first's", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), switchboard(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const all = [...flows.values()].join("\n");
  assert.match(summary, /key of POST \/overrides ← GET \/switches \$\.json\[0\]\.id/);
  // The listing is read before the override that names its item.
  assert.ok(all.indexOf("get_switches\n") < all.indexOf("post_overrides"), all);
  // The create makes its own id; a colour is no handle; `spare` is sent by nobody.
  assert.doesNotMatch(summary, /(id of POST \/switches|color of POST \/overrides|spare) ←/);
  assert.match(all, /color: blue/);
});

/** Lamps listed in a wrapper; a scene lights some, and one first (an `allOf` to describe it). */
function lampsDocument(): Record<string, unknown> {
  const key = ref("LampKey");
  return {
    openapi: "3.0.3",
    info: { title: "Lights", version: "1" },
    paths: {
      "/lamps": {
        get: {
          responses: ok({
            type: "object",
            properties: { lamps: { type: "array", items: { properties: { id: key } } } },
          }),
        },
      },
      "/lamps/{lampId}": {
        get: {
          parameters: [{ name: "lampId", in: "path", required: true, schema: { type: "string" } }],
          responses: ok({ properties: { id: key } }),
        },
      },
      "/scenes": {
        post: {
          requestBody: {
            content: json({
              required: ["lamps", "first"],
              properties: {
                lamps: { type: "array", items: key },
                first: { allOf: [key], description: "The lamp lit first" },
              },
            }),
          },
          responses: { "201": { description: "Made", content: json({ type: "object" }) } },
        },
      },
    },
    components: { schemas: { LampKey: { type: "string" } } },
  };
}

/** One lamp; a scene of any other is refused (400). */
function lights() {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/lamps") return Response.json({ lamps: [{ id: "desk/1" }] });
    if (pathname.startsWith("/lamps/")) return Response.json({ id: "desk/1" });
    const sent = await req.json();
    const known = (id: unknown) => id === "desk/1";
    if (!Array.isArray(sent.lamps) || !sent.lamps.every(known) || !known(sent.first)) {
      return Response.json({ message: "No such lamp" }, { status: 400 });
    }
    return Response.json({ scene: 1 }, { status: 201 });
  });
}

Deno.test("an array of the type, a described `$ref` and a wrapped listing are the same class", async () => {
  const { runs, summary } = await convertAndRunSuite(lampsDocument(), lights(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /lamps\[\] of POST \/scenes ← GET \/lamps \$\.json\.lamps\[0\]\.id/);
  assert.match(summary, /first of POST \/scenes ← GET \/lamps \$\.json\.lamps\[0\]\.id/);
});

/** The switchboard's override and listing, written in Swagger 2.0. */
function swaggerDocument(): Record<string, unknown> {
  const def = (name: string) => ({ $ref: `#/definitions/${name}` });
  const id = { name: "id", in: "path", required: true, type: "string" };
  return {
    swagger: "2.0",
    info: { title: "Switchboard", version: "1" },
    consumes: ["application/json"],
    produces: ["application/json"],
    paths: {
      "/switches": {
        get: {
          responses: {
            "200": { description: "OK", schema: { type: "array", items: def("Switch") } },
          },
        },
      },
      "/switches/{id}": {
        get: {
          parameters: [id],
          responses: { "200": { description: "OK", schema: def("Switch") } },
        },
      },
      "/overrides": {
        post: {
          parameters: [{
            name: "body",
            in: "body",
            required: true,
            schema: { required: ["key"], properties: { key: def("SwitchKey") } },
          }],
          responses: { "204": { description: "Done" }, "400": { description: "No such switch" } },
        },
      },
    },
    definitions: {
      SwitchKey: { type: "string" },
      Switch: { type: "object", properties: { id: def("SwitchKey"), label: { type: "string" } } },
    },
  };
}

Deno.test("a Swagger 2.0 document's definitions are named schemas too", async () => {
  const { runs, summary } = await convertAndRunSuite(swaggerDocument(), switchboard(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /key of POST \/overrides ← GET \/switches \$\.json\[0\]\.id/);
});
