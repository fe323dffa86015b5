/**
 * `convert har` on a UI where the name the user types IS the item's identifier: the page posts
 * `{"className": "Voyage"}` to `/api/schemas/Voyage`, the answer echoes the name with no id
 * beside it (`{"className": "Voyage", "fields": {…}}`), and every later call addresses the item
 * by that name as a path segment (`/api/schemas/Voyage`, `/api/classes/Voyage`). Nothing deletes
 * it. Sent as recorded, a second run on the same instance is refused (400, the name exists).
 * Such a name is made the run's own everywhere it is sent and checked, in the typed value's own
 * shape: a word of letters, digits and `_` gets `_` before its suffix (`Voyage_${RANDOM.HEX_8}`),
 * since a server that takes names for identifiers may refuse a `-` (Parse does).
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242/api";
const IDENT = /^[A-Za-z]\w*$/;

/** A stand-in keeping named schemas (400 when taken or not a word) and their rows. */
function standIn() {
  const schemas = new Map<string, Record<string, unknown>>();
  const rows = new Map<string, Record<string, unknown>[]>();
  const refuse = (error: string) => Response.json({ code: 103, error }, { status: 400 });
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/api/schemas") {
      return Response.json({ results: [...schemas.values()] });
    }
    const [, kind, name] = /^\/api\/(schemas|classes)\/([^/]+)$/.exec(path) ?? [];
    if (!name) return new Response(null, { status: 404 });
    const body = req.method === "GET" ? {} : await req.json();
    if (kind === "schemas" && req.method === "POST") {
      if (!IDENT.test(name)) return refuse(`invalid class name: ${name}`);
      if (body.className !== name) return refuse("class name mismatch");
      if (schemas.has(name)) return refuse(`Class ${name} already exists.`);
      schemas.set(name, { className: name, fields: { objectId: { type: "String" } } });
      rows.set(name, []);
      return Response.json(schemas.get(name));
    }
    const schema = schemas.get(name);
    if (!schema) return refuse(`Class ${name} does not exist.`);
    if (kind === "schemas" && req.method === "PUT") {
      schema.fields = { ...schema.fields as object, ...body.fields };
      return Response.json(schema);
    }
    if (kind === "classes" && req.method === "POST") {
      const row = { objectId: crypto.randomUUID().slice(0, 10), ...body };
      rows.get(name)!.push(row);
      return Response.json({ objectId: row.objectId }, { status: 201 });
    }
    if (kind === "classes" && req.method === "GET") {
      return Response.json({ results: rows.get(name) });
    }
    return new Response(null, { status: 404 });
  });
}

const SCHEMA = { className: "Voyage", fields: { objectId: { type: "String" } } };
const WITH_TITLE = {
  className: "Voyage",
  fields: { objectId: { type: "String" }, title: { type: "String" } },
};

/** The journey: the list read, a schema made by its name, a column added, a row added and read. */
function journey(): string {
  const json = (v: unknown) => JSON.stringify(v);
  return harOf([
    { url: `${API}/schemas`, json: { results: [] } },
    {
      method: "POST",
      url: `${API}/schemas/Voyage`,
      body: json({ className: "Voyage" }),
      json: SCHEMA,
    },
    { url: `${API}/schemas`, json: { results: [SCHEMA] } },
    {
      method: "PUT",
      url: `${API}/schemas/Voyage`,
      body: json({ className: "Voyage", fields: { title: { type: "String" } } }),
      json: WITH_TITLE,
    },
    {
      method: "POST",
      url: `${API}/classes/Voyage`,
      body: json({ title: "Lisbon run" }),
      status: 201,
      json: { objectId: "DBBqQXNkeG" },
    },
    {
      url: `${API}/classes/Voyage`,
      json: { results: [{ objectId: "DBBqQXNkeG", title: "Lisbon run" }] },
    },
  ]);
}

/** The lines of a flow that are sent or checked, its comments left out. */
function sentLines(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

Deno.test("convert har: a typed name the journey keeps and addresses by path is made the run's own in its own shape, so a second run on the same instance passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-ident-" });
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey());
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(flow, /Voyage_\$\{RANDOM\.HEX_8\}/, flow);
    assert.doesNotMatch(sentLines(flow), /Voyage(?!_\$\{RANDOM)/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
