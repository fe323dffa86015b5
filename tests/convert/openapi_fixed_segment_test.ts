/**
 * `convert openapi` on association paths whose collection's name is a path
 * parameter allowed one value, as Sails' blueprint generator documents them
 * (a Sails 1 chat service's committed document, 2022: `PUT
 * /room/{_id}/{association}/{childid}` with `association`'s schema `enum:
 * [messages]`). Before, `{association}` and `{childid}` were both read from
 * the room's create (`$.json.id`): the server answered 404 for the room's id
 * as an association name, on all eight association paths. A parameter
 * whose schema allows one value is that segment, spelled once: `messages`
 * is sent, and the child after it is an item of that collection, the id
 * `POST /message` answers.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for an association or a
 * child it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { readsBackWhole } from "../../lib/convert/openapi/settings_read_back.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const item = (props: Record<string, unknown>) => ({
  type: "object",
  properties: { id: { type: "string" }, ...props },
});
const ROOM = item({ name: { type: "string" } });
const MESSAGE = item({ text: { type: "string" } });
const ok = (schema: unknown) => ({ "200": { description: "Done", ...json(schema) } });
const param = (name: string, schema: unknown) => ({ in: "path", name, required: true, schema });
const ROOM_ID = param("roomId", { type: "string" });
const ASSOCIATION = param("association", { type: "string", enum: ["messages"] });
const CHILD = param("childId", { type: "string" });

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "rooms", version: "1" },
  paths: {
    "/room": { post: { tags: ["Room"], requestBody: json(ROOM), responses: ok(ROOM) } },
    "/message": {
      post: { tags: ["Message"], requestBody: json(MESSAGE), responses: ok(MESSAGE) },
    },
    "/room/{roomId}/{association}": {
      get: { tags: ["Room"], parameters: [ROOM_ID, ASSOCIATION], responses: ok({}) },
    },
    "/room/{roomId}/{association}/{childId}": {
      put: { tags: ["Room"], parameters: [ROOM_ID, ASSOCIATION, CHILD], responses: ok(ROOM) },
    },
    // The same under a verb, as Sails' shortcut routes add a child.
    "/room/{roomId}/{association}/add/{childId}": {
      get: { tags: ["Room"], parameters: [ROOM_ID, ASSOCIATION, CHILD], responses: ok(ROOM) },
    },
  },
};

/** Rooms and messages in memory; a room's `messages` holds the messages added to it. */
function standIn(seen: string[]) {
  const rooms = new Map<string, string[]>();
  const messages = new Set<string>();
  let next = 1;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST") {
      const body = await req.json();
      const id = `r${next++}`;
      if (pathname === "/room") rooms.set(id, []);
      else messages.add(id);
      return Response.json({ ...body, id });
    }
    const [, room, association, child] =
      /^\/room\/([^/]+)\/([^/]+)(?:\/(?:add\/)?([^/]+))?$/.exec(pathname) ?? [];
    const held = rooms.get(room);
    if (!held || association !== "messages") return new Response("Not Found", { status: 404 });
    if (child === undefined) return Response.json(held);
    if (!messages.has(child)) return new Response("Not Found", { status: 404 });
    held.push(child);
    return Response.json({ id: room, messages: held });
  });
}

Deno.test("convert openapi: a path parameter allowed one value is that segment, its child that collection's", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, standIn(seen));
  assert.doesNotMatch(summary, /\{association\} of/, summary);
  assert.match(
    summary,
    /\{childId\} of PUT \/room\/\{roomId\}\/messages\/\{childId\} ← POST \/message/,
  );
  assert.match(
    summary,
    /\{childId\} of GET \/room\/\{roomId\}\/messages\/add\/\{childId\} ← POST \/message/,
  );
  assert.doesNotMatch(summary, /Fill in/, summary);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.ok(seen.some((s) => /^PUT \/room\/r\d+\/messages\/r\d+$/.test(s)), seen.join(", "));
  assert.ok(seen.some((s) => /^GET \/room\/r\d+\/messages\/add\/r\d+$/.test(s)), seen.join(", "));
  assert.ok(seen.some((s) => /^GET \/room\/r\d+\/messages$/.test(s)), seen.join(", "));
});

Deno.test("operationsOf: a path parameter allowed exactly one value, not the last, becomes a segment", () => {
  const two = param("kind", { type: "string", enum: ["a", "b"] });
  const one = param("kind", { $ref: "#/components/schemas/Kind" });
  const constant = param("kind", { const: "c" });
  const doc = {
    components: { schemas: { Kind: { type: "string", enum: ["k"] } } },
    paths: {
      "/x/{kind}/items": { get: { parameters: [two] } },
      "/y/{kind}/items": { get: { parameters: [one] } },
      "/z/{kind}/items": { get: { parameters: [constant] } },
      "/w/{kind}/items": { get: { parameters: [param("kind", { enum: ["a/b"] })] } },
      // The last still names the item the path addresses (a PUT there creates it).
      "/v/{kind}": { put: { parameters: [one] } },
    },
  };
  const ops = operationsOf(doc);
  assert.deepEqual(ops.map((o) => o.template), [
    "/x/{kind}/items",
    "/y/k/items",
    "/z/c/items",
    "/w/{kind}/items",
    "/v/{kind}",
  ]);
  assert.deepEqual(ops.map((o) => o.params.length), [1, 0, 0, 1, 1]);
  assert.equal(ops[4].role, "create");
  // The step keeps the name of the document's path, and the operation the path itself.
  assert.equal(ops[1].name, "get_y_kind_items");
  assert.deepEqual(ops.map((o) => o.path), [
    undefined,
    "/y/{kind}/items",
    "/z/{kind}/items",
    undefined,
    undefined,
  ]);
});

Deno.test("operationsOf: what reads the document's path item finds it under a one-value segment", () => {
  const kind = param("kind", { type: "string", enum: ["main"] });
  const ok = {
    "200": { description: "", content: { "application/json": { schema: { type: "object" } } } },
  };
  const doc = {
    paths: {
      "/config/{kind}/settings": {
        get: { parameters: [kind], responses: ok },
        put: { parameters: [kind], responses: ok },
      },
    },
  };
  const put = operationsOf(doc).find((o) => o.method === "PUT")!;
  assert.equal(put.template, "/config/main/settings");
  // The settings read beside it is found at the document's own path.
  assert.ok(readsBackWhole(put, doc));
});
