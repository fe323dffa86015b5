/**
 * `convert openapi` on an update whose schema requires nothing but whose
 * documented refusal names what it needs. An Express API documented by
 * swagger-jsdoc (a school planner on PostgreSQL, measured by hand)
 * describes `PUT /posts/{id}` as `{title, text, image}`, no `required`
 * list, and its answer `400` as "Bad request, missing title or text"; its
 * handler refuses either missing. The update was sent one member (`title`)
 * and refused 400 "Missing text". The members a 4xx answer's description
 * says are missing (or required) are sent; a member it does not name stays
 * out.
 *
 * The stand-in runs on 127.0.0.1: posts numbered by the server, an update
 * refused unless it sends both texts, and refused if it sends an `image`
 * (which nothing here made).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const post = {
  type: "object",
  properties: { title: text, text, image: { type: "string", nullable: true } },
};
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const answer = json({
  type: "object",
  properties: {
    data: { type: "object", properties: { id: { type: "integer" }, ...post.properties } },
  },
});

const document = {
  openapi: "3.0.0",
  info: { title: "Posts", version: "1" },
  paths: {
    "/posts": {
      post: {
        tags: ["Posts"],
        requestBody: { required: true, ...json(post) },
        responses: { "201": { description: "Created", ...answer } },
      },
    },
    "/posts/{id}": {
      put: {
        tags: ["Posts"],
        parameters: id,
        requestBody: { required: true, ...json(post) },
        responses: {
          "200": { description: "Updated", ...answer },
          "400": { description: "Bad request, missing title or text" },
          "404": { description: "Post not found" },
        },
      },
    },
  },
};

/** Posts by number; an update must send both texts and no image. */
function posts() {
  const made = new Map<number, Record<string, unknown>>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    const body = await req.json();
    if (req.method === "POST") {
      const n = made.size + 1;
      made.set(n, body);
      return Response.json({ data: { id: n, ...body } }, { status: 201 });
    }
    if (!made.has(Number(path[1]))) return new Response("Post not found", { status: 404 });
    if (!body.title) return new Response("Missing title", { status: 400 });
    if (!body.text) return new Response("Missing text", { status: 400 });
    if (body.image !== undefined) return new Response("No such image", { status: 400 });
    return Response.json({ data: { id: Number(path[1]), ...body } });
  });
}

Deno.test("an update sends the members its documented refusal says are missing", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document, posts());
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const put = (flows.get("posts.yaml") ?? "").split("method: PUT")[1] ?? "";
  assert.match(put, /title:/, put);
  assert.match(put, /text:/, put);
  assert.doesNotMatch(put, /image:/, put);
});
