/**
 * `convert openapi` on a PUT at a path that is one item though no parameter
 * names it (an Express backend's `@asteasolutions/zod-to-openapi` document:
 * `GET /auth/profile` answers the signed-in user, `PUT /auth/profile`
 * takes `{firstName?, lastName?, email?}`, no PATCH, no POST beside them).
 * The body was `{}`, which the backend refused 400 ("At least one field
 * must be provided for update"): the rule for an item's only update
 * (openapi_sole_put_test.ts) read "item" as a path ending in a parameter.
 * A path with a GET answering one object and no POST creating into it is
 * an item too, so its PUT with no PATCH beside now sends the schema's first
 * text property. A PUT on a collection (a GET answering a list, or a POST
 * beside) still sends what its schema requires. The stand-in runs on
 * 127.0.0.1 and the suite is run twice.
 */
import assert from "node:assert/strict";
import { isSoleUpdate } from "../../lib/convert/openapi/patch_body.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const PROFILE = {
  type: "object",
  required: ["id", "firstName", "lastName"],
  properties: {
    id: { type: "string", format: "uuid" },
    firstName: { type: "string" },
    lastName: { type: "string" },
  },
};
const CHANGE = {
  type: "object",
  properties: {
    firstName: { type: "string", minLength: 1, maxLength: 100 },
    lastName: { type: "string", minLength: 1, maxLength: 100 },
    email: { type: "string", format: "email" },
  },
};
const ANSWER = {
  description: "The profile",
  ...json({ type: "object", properties: { success: { type: "boolean" }, data: PROFILE } }),
};

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "profile", version: "1" },
  paths: {
    "/auth/profile": {
      get: { responses: { 200: ANSWER } },
      put: { requestBody: json(CHANGE), responses: { 200: ANSWER } },
    },
  },
};

Deno.test("convert openapi: a PUT at a path that is one item (a GET of an object, no POST) is its only update", async () => {
  const profile = { id: crypto.randomUUID(), firstName: "A", lastName: "B" };
  const puts: string[] = [];
  const server = serveStandIn(async (req) => {
    if (req.method === "GET") return Response.json({ success: true, data: profile });
    const change = await req.json();
    puts.push(JSON.stringify(Object.keys(change)));
    // What the backend's validation (a zod refine the document cannot show) answers.
    if (Object.keys(change).length === 0) {
      return Response.json({ success: false, error: "At least one field" }, { status: 400 });
    }
    Object.assign(profile, change);
    return Response.json({ success: true, data: profile });
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(puts, ['["firstName"]', '["firstName"]']);
});

Deno.test("convert openapi: a PUT on a collection (a GET of a list, or a POST beside) is no item's update", () => {
  const list = { description: "All", ...json({ type: "array", items: PROFILE }) };
  const doc = {
    paths: {
      "/listed": { get: { responses: { 200: list } }, put: {} },
      "/created": { get: { responses: { 200: ANSWER } }, post: {}, put: {} },
      "/patched": { get: { responses: { 200: ANSWER } }, patch: {}, put: {} },
      "/own": { get: { responses: { 200: ANSWER } }, put: {} },
      "/unread": { put: {} },
    },
  };
  const got = Object.keys(doc.paths).map((t) => isSoleUpdate(doc, "PUT", t));
  assert.deepEqual(got, [false, false, false, true, false]);
});
