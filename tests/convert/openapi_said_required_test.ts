/**
 * `convert openapi`: in a body whose schema requires nothing, a property the operation's summary
 * says cannot be empty ("Role name cannot be empty.", "the key is required") is sent, however
 * short its name: a summary's mere mention of `name` or `key` is too common a word to tell
 * (`summary_named.ts`), but a sentence saying it is needed is the document's word for
 * `required`. etcd's document is generated from proto3, which has no required field: its
 * `RoleAdd` and `UserAdd` were sent `{}` ("role name is empty", 400;
 * tests/real/etcd_openapi_test.ts).
 *
 * The stand-in refuses a body without the name, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };

/** A POST of the tag `Auth` whose body declares `properties` and requires none. */
const post = (summary: string, properties: Record<string, unknown>) => ({
  post: {
    tags: ["Auth"],
    summary,
    requestBody: {
      content: { "application/json": { schema: { type: "object", properties } } },
    },
    responses: { "200": { description: "done" } },
  },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Roles", version: "1" },
  paths: {
    "/v3/auth/role/add": post("RoleAdd adds a new role. Role name cannot be empty.", {
      name: text,
    }),
    "/v3/auth/user/add": post("UserAdd adds a new user. User name cannot be empty.", {
      name: text,
      password: text,
    }),
    "/v3/kv/put": post("Put puts the given key. The key is required.", { key: text, lease: text }),
    "/v3/notes/find": post("Finds a note with a name.", { name: text }),
  },
};

Deno.test("convert openapi: a property the summary says cannot be empty is sent, however short its name; a mere mention is not", async () => {
  const bodies = new Map<string, Record<string, unknown>>();
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    bodies.set(path, body);
    const needs = path === "/v3/kv/put" ? "key" : path === "/v3/notes/find" ? undefined : "name";
    const good = needs === undefined || (typeof body[needs] === "string" && body[needs] !== "");
    return good
      ? Response.json({})
      : Response.json({ error: `${needs} is empty` }, { status: 400 });
  });
  const { runs, summary } = await convertAndRunSuite(document, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + summary);
  assert.deepEqual(Object.keys(bodies.get("/v3/auth/user/add") ?? {}), ["name"]);
  assert.deepEqual(Object.keys(bodies.get("/v3/kv/put") ?? {}), ["key"]);
  assert.deepEqual(bodies.get("/v3/notes/find"), {});
});
