/**
 * `convert openapi` on a document whose items are addressed under a verb
 * segment after their collection's noun, as small FastAPI and Express APIs
 * route them: `POST /post` creates, `GET /post/get/{id}` reads and
 * `GET /post/delete/{id}` deletes (a course's Instagram API on FastAPI,
 * 2022). Before, `{id}` was read from nothing (`/post/delete` is no
 * collection), so the summary asked for "the id of one that exists" and the
 * delete ran with `1` before the create, refused 404 on a fresh database and
 * 403 on another account's post. Now the segment before the parameter, a
 * delete, read or update verb after a noun, names the item of the noun's
 * collection: `{id}` is the id `POST /post` answers, and a GET under a
 * delete verb runs last, after the reads of the item it removes.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for a post it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const post = {
  type: "object",
  properties: { id: { type: "integer" }, caption: { type: "string" } },
  required: ["id", "caption"],
};
const idParam = [{ schema: { type: "integer" }, in: "path", name: "id", required: true }];
const ok = (schema: unknown = {}) => ({
  "200": { description: "Successful Response", ...json(schema) },
});

const document = {
  openapi: "3.0.2",
  info: { title: "FastAPI", version: "0.1.0" },
  paths: {
    "/post": {
      post: {
        tags: ["post"],
        requestBody: json({
          type: "object",
          properties: { caption: { type: "string" } },
          required: ["caption"],
        }),
        responses: ok(post),
      },
    },
    "/post/all": { get: { tags: ["post"], responses: ok({ type: "array", items: post }) } },
    "/post/delete/{id}": { get: { tags: ["post"], parameters: idParam, responses: ok() } },
    "/post/get/{id}": { get: { tags: ["post"], parameters: idParam, responses: ok(post) } },
  },
};

/** Posts in memory: a read or delete of one it does not hold is 404. */
function standIn(seen: string[]) {
  const posts = new Map<number, { id: number; caption: string }>();
  let next = 41;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST" && pathname === "/post") {
      const { caption } = await req.json();
      const made = { id: next++, caption };
      posts.set(made.id, made);
      return Response.json(made);
    }
    if (pathname === "/post/all") return Response.json([...posts.values()]);
    const [, verb, id] = /^\/post\/(get|delete)\/(\d+)$/.exec(pathname) ?? [];
    const held = posts.get(Number(id));
    if (!held) return Response.json({ detail: `Post with id ${id} not found` }, { status: 404 });
    if (verb === "delete") posts.delete(held.id);
    return Response.json(verb === "delete" ? "ok" : held);
  });
}

Deno.test("convert openapi: an item under a verb segment is its noun's create's, deleted last", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen));
  assert.match(summary, /\{id\} of GET \/post\/delete\/\{id\} ← POST \/post \$\.json\.id/);
  assert.match(summary, /\{id\} of GET \/post\/get\/\{id\} ← POST \/post \$\.json\.id/);
  assert.doesNotMatch(summary, /Fill in/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  // The read of the post before its delete, the delete last.
  const read = seen.findIndex((s) => s.startsWith("GET /post/get/"));
  const removed = seen.findIndex((s) => s.startsWith("GET /post/delete/"));
  assert.ok(read >= 0 && read < removed, seen.join(", "));
});

/*
 * A create under a verb segment, as NestJS and Express projects route it
 * (a bookmarks API on NestJS, 2023: `POST /bookmark/create` beside `GET /bookmark`,
 * `GET|PATCH|DELETE /bookmark/{id}`). Before, a POST to a path of no parameter
 * that nothing else used was read as acting on the whole API: the flow ran
 * alone, the create last, after the reads and deletes of the id it makes,
 * which were sent the placeholder. The verb after the noun says it makes an
 * item of the noun's collection, as `/bookmark/{id}`, `/note/get/{id}` and
 * `/note/list` show the collection to be (a registration for an event too).
 */
const uuid = { type: "string", format: "uuid" };
const itemOf = (name: string) => ({
  type: "object",
  properties: { id: uuid, title: { type: "string" }, link: { type: "string" } },
  required: ["id", "title"],
  title: name,
});
const uuidParam = [{ schema: { type: "string" }, in: "path", name: "id", required: true }];
const created = (schema: unknown) => ({ "201": { description: "Created", ...json(schema) } });
const writes = {
  type: "object",
  properties: { title: { type: "string" }, link: { type: "string" } },
  required: ["title", "link"],
};
const made = (noun: string) => ({
  post: { tags: [noun], requestBody: json(writes), responses: created(itemOf(noun)) },
});
const byId = (noun: string, methods: string[]) =>
  Object.fromEntries(
    methods.map((m) => [m, {
      tags: [noun],
      parameters: uuidParam,
      ...(m === "get" ? {} : m === "delete" ? {} : { requestBody: json(writes) }),
      responses: ok(itemOf(noun)),
    }]),
  );

const verbDocument = {
  openapi: "3.0.0",
  info: { title: "Bookmarks", version: "1.0" },
  paths: {
    "/bookmark/create": made("bookmark"),
    "/bookmark": {
      get: { tags: ["bookmark"], responses: ok({ type: "array", items: itemOf("b") }) },
    },
    "/bookmark/{id}": byId("bookmark", ["get", "patch", "delete"]),
    "/note/add": made("note"),
    "/note/list": { get: { tags: ["note"], responses: ok({ type: "array", items: itemOf("n") }) } },
    "/note/get/{id}": byId("note", ["get"]),
    "/note/update/{id}": byId("note", ["put"]),
    "/note/delete/{id}": byId("note", ["delete"]),
    "/link/new": made("link"),
    "/link/{id}": byId("link", ["get", "delete"]),
    "/event/register": made("event"),
    "/event/{id}": byId("event", ["get", "delete"]),
  },
};

/** Items in memory by noun: a create without `title` and `link` is 400, an unknown id 404. */
function verbStandIn(seen: string[]) {
  const held = new Map<string, { id: string; title: string; link: string; noun: string }>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    const [, noun, rest] = /^\/(bookmark|note|link|event)(?:\/(.*))?$/.exec(pathname) ?? [];
    if (!noun) return Response.json({ message: "Not found" }, { status: 404 });
    if (req.method === "POST" && /^(create|add|new|register)$/.test(rest ?? "")) {
      const { title, link } = await req.json();
      if (typeof title !== "string" || typeof link !== "string") {
        return Response.json({ message: "title and link are required" }, { status: 400 });
      }
      const item = { id: crypto.randomUUID(), title, link, noun };
      held.set(item.id, item);
      return Response.json(item, { status: 201 });
    }
    if (req.method === "GET" && (rest === undefined || rest === "list")) {
      return Response.json([...held.values()].filter((i) => pathname.startsWith(`/${i.noun}`)));
    }
    const id = /^(?:(?:get|update|delete)\/)?([0-9a-f-]{36})$/.exec(rest ?? "")?.[1] ?? "";
    const item = held.get(id);
    if (!item) return Response.json({ message: `No ${noun} ${id}` }, { status: 404 });
    if (req.method === "DELETE") held.delete(id);
    if (req.method === "PUT" || req.method === "PATCH") Object.assign(item, await req.json());
    return Response.json(item);
  });
}

Deno.test("convert openapi: a create under a verb segment makes its noun's items, first", async () => {
  const seen: string[] = [];
  const suite = await convertAndRunSuite(verbDocument, verbStandIn(seen), { runs: 2 });
  const { runs, summary } = suite;
  assert.doesNotMatch(summary, /Fill in/);
  for (const text of suite.flows.values()) assert.doesNotMatch(text, /serial: true|whole API/);
  assert.match(summary, /\{id\} of GET \/bookmark\/\{id\} ← POST \/bookmark\/create \$\.json\.id/);
  assert.match(summary, /\{id\} of PUT \/note\/update\/\{id\} ← POST \/note\/add \$\.json\.id/);
  assert.match(summary, /\{id\} of DELETE \/link\/\{id\} ← POST \/link\/new \$\.json\.id/);
  assert.match(summary, /\{id\} of GET \/event\/\{id\} ← POST \/event\/register \$\.json\.id/);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout);
  // Every request answered 2xx by the stand-in; each noun's create before anything of its id.
  for (const noun of ["bookmark", "note", "link", "event"]) {
    const mine = seen.filter((s) => s.includes(`/${noun}/`) || s.endsWith(`/${noun}`));
    assert.match(mine[0], new RegExp(`^POST /${noun}/(create|add|new|register)$`), mine.join(", "));
  }
  assert.equal(seen.filter((s) => /^POST /.test(s)).length, 8, seen.join(", "));
  // An update under its verb is no create the client names: after the read of the item.
  const read = seen.findIndex((s) => s.startsWith("GET /note/get/"));
  assert.ok(read >= 0 && read < seen.findIndex((s) => s.startsWith("PUT /note/update/")));
});

Deno.test("convert openapi: a create verb creates only under a noun the document shows a collection", () => {
  const roles = (paths: Record<string, unknown>) =>
    operationsOf({ paths }).map((op) => `${op.method} ${op.template} ${op.role ?? "-"}`);
  const post = { post: {} };
  // An item path elsewhere: the document is REST-shaped (without one, `rpc_verbs.ts` decides).
  const item = { "/users/{id}": { get: {} } };
  // Listed by `/list` or `/all`, or with items under a verb: a create of the noun's items.
  assert.deepEqual(roles({ "/todo/add": post, "/todo/list": { get: {} }, ...item }), [
    "POST /todo/add create",
    "GET /todo/list -",
    "GET /users/{id} -",
  ]);
  assert.deepEqual(roles({ "/todo/new": post, "/todo/delete/{id}": { delete: {} } }), [
    "POST /todo/new create",
    "DELETE /todo/delete/{id} delete",
  ]);
  // A sign-up beside a login under `/auth`, or a create alone: no collection, as before.
  assert.deepEqual(roles({ "/auth/register": post, "/auth/login": post, ...item }), [
    "POST /auth/register whole",
    "POST /auth/login whole",
    "GET /users/{id} -",
  ]);
  assert.deepEqual(roles({ "/job/create": post, "/job/status": { get: {} }, ...item }), [
    "POST /job/create whole",
    "GET /job/status -",
    "GET /users/{id} -",
  ]);
});
