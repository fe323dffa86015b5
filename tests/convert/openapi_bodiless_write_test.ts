/**
 * `convert openapi` on a document whose creates and updates give no request
 * body (NestJS 7 with `@Body()` of a class `@nestjs/swagger` never read: a
 * RealWorld backend measured by hand documented none of its 7 writes' bodies,
 * and the server answered 422 naming the members it wanted). The flows send
 * what the document gives, nothing, and the summary said nothing of it, so a
 * user saw only 4xx. The summary now names each create (a POST to a
 * collection) and each update (a PUT or PATCH of an item) that the document
 * gives no body nor query to send, and says what to do: a create of items the
 * document addresses one by one, an update of an item its collection's POST
 * creates. A write with a body, one that sends its query, and an action
 * (`/posts/{id}/star`, RealWorld's `POST /profiles/{username}/follow`, a `PUT`
 * of a follow), which needs none, are not named.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const item = { type: "object", properties: { id: { type: "integer" }, title: { type: "string" } } };
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const answer = { 200: { description: "", ...json(item) } };

const document = {
  openapi: "3.0.0",
  info: { title: "bodiless", version: "1" },
  paths: {
    "/posts": { post: { tags: ["Posts"], responses: { 201: { description: "", ...json(item) } } } },
    "/posts/{id}": {
      get: { tags: ["Posts"], parameters: id, responses: answer },
      put: { tags: ["Posts"], parameters: id, responses: answer },
      patch: {
        tags: ["Posts"],
        parameters: [...id, { name: "title", in: "query", schema: { type: "string" } }],
        responses: answer,
      },
    },
    "/posts/{id}/star": { post: { tags: ["Posts"], parameters: id, responses: answer } },
    // RealWorld's follow: a POST and a DELETE on one path read as a create, of no items.
    "/profiles/{id}/follow": {
      post: { tags: ["Profiles"], parameters: id, responses: answer },
      delete: { tags: ["Profiles"], parameters: id, responses: answer },
    },
    "/me/follows/{id}": { put: { tags: ["Profiles"], parameters: id, responses: answer } },
    "/notes": {
      post: { tags: ["Notes"], requestBody: json(item), responses: { 201: { description: "" } } },
    },
  },
};

Deno.test("convert openapi: the summary names the creates and updates the document gives no body", async () => {
  const { summary } = await convertAndRunSuite(document, serveStandIn(() => new Response()), {
    runs: 0,
  });
  const line = /^Sent with no body.*$/m.exec(summary)?.[0] ?? "";
  assert.match(line, /: POST \/posts, PUT \/posts\/\{id\}$/, summary);
  assert.match(line, /400 or 422/, summary);
});

Deno.test("convert openapi: a document whose writes all give a body says nothing of bodies", async () => {
  const only = { ...document, paths: { "/notes": document.paths["/notes"] } };
  const { summary } = await convertAndRunSuite(only, serveStandIn(() => new Response()), {
    runs: 0,
  });
  assert.doesNotMatch(summary, /no body/, summary);
});
