/**
 * `convert openapi` on an update of one setting whose schema holds that one
 * member and requires nothing. An Express API documented by swagger-jsdoc
 * (a school planner on PostgreSQL, measured by hand) sets a user's push
 * token by `PUT /users/accounts/{id}/push-token` `{expo_push_token}`, no
 * `required` list, and refuses a body without it (400 "Missing
 * expo_push_token"): the step was sent `{}`, which asks for nothing. A PUT
 * no PATCH stands beside, whose JSON body came out empty and whose schema
 * declares one writable member, sends that member.
 *
 * The stand-in runs on 127.0.0.1: users numbered by the server, a token
 * update refused without its token.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const user = {
  type: "object",
  properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
};

const document = {
  openapi: "3.0.0",
  info: { title: "Planner", version: "1" },
  paths: {
    "/users": {
      post: {
        tags: ["Users"],
        requestBody: { required: true, ...json(user) },
        responses: { "201": { description: "Created", ...json(user) } },
      },
    },
    "/users/{id}/push-token": {
      put: {
        tags: ["Users"],
        summary: "Update a user's push token",
        parameters: id,
        requestBody: {
          required: true,
          ...json({ type: "object", properties: { expo_push_token: { type: "string" } } }),
        },
        responses: { "200": { description: "Push token updated" } },
      },
    },
  },
};

/** Users by number; a push token update must send the token. */
function users() {
  let next = 0;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    const body = await req.json();
    if (req.method === "POST") return Response.json({ id: ++next, ...body }, { status: 201 });
    if (Number(path[1]) < 1 || Number(path[1]) > next) return new Response(null, { status: 404 });
    if (!body.expo_push_token) {
      return Response.json({ error: "Missing expo_push_token" }, { status: 400 });
    }
    return Response.json({ message: "Push token updated" });
  });
}

Deno.test("an update of one setting sends the one member its schema declares", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document, users());
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const put = (flows.get("users.yaml") ?? "").split("method: PUT")[1] ?? "";
  assert.match(put, /expo_push_token:/, put);
});
