/**
 * `convert openapi` on a document whose writes promise a body and describe none
 * of its members: `@nestjs/swagger` writes `{type: object, properties: {}}` for a
 * `@Body()` class none of whose members carries `@ApiProperty` (a NestJS 9 API
 * measured by hand: a role's create, a post's create, a user's ban and its role
 * grant). The flows send `{}`, the server refuses it for the members it reads,
 * and the summary said nothing, so a user saw a wall of 4xx and 5xx with no
 * word of why. The summary now names each such write, whatever its method or
 * path (an action's body too: the document says one is sent). A body that
 * names a member, a map of named values (`additionalProperties` with a
 * schema), one the document gives an example of, a bare `{}` (any JSON,
 * not said to be an object), and an empty one the document titles or describes
 * (a request message of no field, as generated API documents write a cancel's)
 * are not named.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown, extra: object = {}) => ({
  required: true,
  content: { "application/json": { schema, ...extra } },
});
const empty = { $ref: "#/components/schemas/CreateTagDto" };
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const item = { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } };
const made = { 201: { description: "", content: { "application/json": { schema: item } } } };

const document = {
  openapi: "3.0.0",
  info: { title: "undescribed", version: "1" },
  paths: {
    "/tags": { post: { tags: ["Tags"], requestBody: json(empty), responses: made } },
    "/tags/{id}": {
      get: { tags: ["Tags"], parameters: id, responses: made },
      patch: { tags: ["Tags"], parameters: id, requestBody: json(item), responses: made },
    },
    "/tags/{id}/archive": {
      post: {
        tags: ["Tags"],
        parameters: id,
        requestBody: json({ type: "object" }),
        responses: { 200: { description: "" } },
      },
    },
    "/labels": {
      put: {
        tags: ["Labels"],
        requestBody: json({ type: "object", additionalProperties: { type: "string" } }),
        responses: { 200: { description: "" } },
      },
      post: {
        tags: ["Labels"],
        requestBody: json({ type: "object" }, { example: { name: "x" } }),
        responses: { 200: { description: "" } },
      },
      patch: { tags: ["Labels"], requestBody: json({}), responses: { 200: { description: "" } } },
    },
    // Written to be empty: a request message of no field, titled or described, takes `{}`.
    "/jobs/{id}:cancel": {
      post: {
        tags: ["Labels"],
        parameters: id,
        requestBody: json({ type: "object", title: "CancelJobRequest", properties: {} }),
        responses: { 200: { description: "" } },
      },
    },
    "/jobs/{id}:pause": {
      post: {
        tags: ["Labels"],
        parameters: id,
        requestBody: json({ description: "Request message for Jobs.Pause.", type: "object" }),
        responses: { 200: { description: "" } },
      },
    },
  },
  components: { schemas: { CreateTagDto: { type: "object", properties: {} } } },
};

/** A server that, as a NestJS DTO validated by hand would, refuses a tag with no name. */
function tagServer() {
  return serveStandIn(async (req) => {
    const body = req.method === "GET" ? {} : await req.json().catch(() => ({}));
    if (req.method === "POST" && new URL(req.url).pathname === "/tags" && !body.name) {
      return Response.json({ message: ["name must be a string"] }, { status: 400 });
    }
    return Response.json({ id: 1, name: "t" }, { status: req.method === "POST" ? 201 : 200 });
  });
}

Deno.test("convert openapi: the summary names the writes whose body names no member", async () => {
  const { summary, runs } = await convertAndRunSuite(document, tagServer());
  const line = /^Sent with no member in the body.*$/m.exec(summary)?.[0] ?? "";
  assert.match(line, /: POST \/tags, POST \/tags\/\{id\}\/archive$/, summary);
  assert.match(line, /400, 422 or 500/, summary);
  // What the summary warns of is what the run shows: the tag is refused for its name.
  assert.match(runs[0].stdout + runs[0].stderr, /400/);
});

Deno.test("convert openapi: bodies that name a member, map values or give an example are not named", async () => {
  const { "/tags": _, "/tags/{id}": _item, "/tags/{id}/archive": _archive, ...paths } =
    document.paths;
  const described = { ...document, paths };
  const { summary } = await convertAndRunSuite(described, tagServer(), { runs: 0 });
  assert.doesNotMatch(summary, /no member in the body/, summary);
});
