/**
 * `convert openapi` on items created under their parent and addressed on
 * their own, every key named `id`: a social media API measured by hand
 * (Express, 2025) makes a comment at `POST /api/posts/{id}/comments` (the
 * post's id) and deletes it at `DELETE /api/comments/{id}` (the comment's),
 * as Rails' shallow routes do. The comment's create was passed over as a
 * producer because its template holds `{id}` too (a producer never reads
 * what it produces), and the delete was sent the text `string` (403
 * "Comment not found"). The same name after another segment is another
 * resource's key: the delete now reads the id the comment's create answers.
 * A create that holds the parameter after the same segment is still no
 * producer of it.
 *
 * The stand-in runs on 127.0.0.1: posts, their comments, and a delete of a
 * comment that exists.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const text = (name: string) => ({
  required: true,
  content: {
    "application/json": {
      schema: { type: "object", required: [name], properties: { [name]: { type: "string" } } },
    },
  },
});
const created = {
  "201": {
    description: "Created",
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { message: { type: "string" }, id: { type: "integer" } },
        },
      },
    },
  },
};
const done = { "200": { description: "Done" } };

const document = {
  openapi: "3.0.0",
  info: { title: "Social", version: "1" },
  paths: {
    "/api/posts": { post: { tags: ["Posts"], requestBody: text("content"), responses: created } },
    "/api/posts/{id}/comments": {
      post: {
        tags: ["Comments"],
        parameters: id,
        requestBody: text("content"),
        responses: created,
      },
    },
    "/api/comments/{id}": { delete: { tags: ["Comments"], parameters: id, responses: done } },
  },
};

/** Posts and comments, each numbered from 1; a comment's delete needs one that exists. */
function social() {
  let posts = 0;
  const comments = new Set<number>();
  let next = 100;
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (req.method === "POST" && path.length === 2) {
      return Response.json({ message: "Post created", id: ++posts }, { status: 201 });
    }
    if (req.method === "POST") {
      if (Number(path[2]) > posts || !(Number(path[2]) >= 1)) {
        return Response.json({ message: "Post not found" }, { status: 403 });
      }
      comments.add(++next);
      return Response.json({ message: "Comment added", id: next }, { status: 201 });
    }
    if (!comments.delete(Number(path[2]))) {
      return Response.json({ message: "Comment not found" }, { status: 403 });
    }
    return Response.json({ message: "Comment deleted" });
  });
}

Deno.test("an item created under its parent is deleted by the id its create answers", async () => {
  const { runs, summary } = await convertAndRunSuite(document, social(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(
    summary,
    /\{id\} of DELETE \/api\/comments\/\{id\} ← POST \/api\/posts\/\{id\}\/comments/,
  );
  assert.doesNotMatch(summary, /Fill in/);
});
