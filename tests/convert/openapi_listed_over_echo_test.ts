/**
 * `convert openapi` on a Django REST framework document whose viewset
 * writes through one serializer and lists through another: drf-spectacular
 * (without `COMPONENT_SPLIT_REQUEST`) gives the write serializer one schema
 * both ways, `PostWrite {title, body}`, as the create's body and its 201,
 * and lists the posts as `PostList {id (readOnly), title, body}` in a page
 * (`{count, results}`). The server answers the create with what the write
 * serializer holds, no `id`. A create documented as echoing its body says
 * nothing of the id the server adds (undescribed_answer.ts), so the id was
 * searched for in its answer: there was none, and every read, update,
 * delete and action of the post was skipped. Where the collection's
 * listing describes its items with the id, the document does say where the
 * id is shown: the listing, read after the create, the run's own item
 * found by what the create sent (own_listed.ts), the listing read after
 * the create even where the create waits for another listing (a comment's
 * `post`, read from the posts' listing). Where the listing
 * describes no id (or there is none), the answer is searched as before.
 * The stand-in on 127.0.0.1 lists another account's post first and refuses
 * writes to it, as the framework's owner permission does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A JSON content of one schema. */
function json(name: string) {
  return { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } };
}

const ID = { name: "id", in: "path", required: true, schema: { type: "integer" } };

/** The document; `listed` is the schema the listing's page holds. */
function document(listed: string) {
  return {
    openapi: "3.0.3",
    info: { title: "posts", version: "1.0.0" },
    // drf-spectacular's order: the paths sorted.
    paths: {
      "/api/comments/": {
        get: {
          operationId: "comments_list",
          tags: ["comments"],
          responses: { 200: { description: "", ...json("PaginatedCommentListList") } },
        },
        post: {
          operationId: "comments_create",
          tags: ["comments"],
          requestBody: { required: true, ...json("CommentWrite") },
          responses: { 201: { description: "", ...json("CommentWrite") } },
        },
      },
      "/api/comments/{id}/": {
        delete: {
          operationId: "comments_destroy",
          tags: ["comments"],
          parameters: [ID],
          responses: { 204: { description: "No response body" } },
        },
      },
      "/api/posts/": {
        get: {
          operationId: "posts_list",
          tags: ["posts"],
          responses: { 200: { description: "", ...json(`Paginated${listed}List`) } },
        },
        post: {
          operationId: "posts_create",
          tags: ["posts"],
          requestBody: { required: true, ...json("PostWrite") },
          responses: { 201: { description: "", ...json("PostWrite") } },
        },
      },
      "/api/posts/{id}/": {
        get: {
          operationId: "posts_retrieve",
          tags: ["posts"],
          parameters: [ID],
          responses: { 200: { description: "", ...json(listed) } },
        },
        patch: {
          operationId: "posts_partial_update",
          tags: ["posts"],
          parameters: [ID],
          requestBody: json("PostWrite"),
          responses: { 200: { description: "", ...json("PostWrite") } },
        },
        delete: {
          operationId: "posts_destroy",
          tags: ["posts"],
          parameters: [ID],
          responses: { 204: { description: "No response body" } },
        },
      },
    },
    components: {
      schemas: {
        PostWrite: {
          type: "object",
          properties: { title: { type: "string", maxLength: 200 }, body: { type: "string" } },
          required: ["body", "title"],
        },
        PostList: {
          type: "object",
          properties: {
            id: { type: "integer", readOnly: true },
            title: { type: "string" },
            body: { type: "string" },
          },
          required: ["body", "id", "title"],
        },
        PostPlain: {
          type: "object",
          properties: { title: { type: "string" }, body: { type: "string" } },
          required: ["body", "title"],
        },
        CommentWrite: {
          type: "object",
          properties: { body: { type: "string" }, post: { type: "integer" } },
          required: ["body", "post"],
        },
        CommentList: {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, body: { type: "string" } },
          required: ["body", "id"],
        },
        PaginatedCommentListList: page("CommentList"),
        PaginatedPostListList: page("PostList"),
        PaginatedPostPlainList: page("PostPlain"),
      },
    },
  };
}

/** DRF's page of `items`. */
function page(items: string) {
  return {
    type: "object",
    properties: {
      count: { type: "integer" },
      results: { type: "array", items: { $ref: `#/components/schemas/${items}` } },
    },
  };
}

/** The stand-in: another's post 1 listed first, the run's answered without their id. */
function standIn(seen: string[]) {
  const posts = new Map<number, { title: string; body: string }>([[1, {
    title: "someone else's",
    body: "theirs",
  }]]);
  const comments = new Map<number, string>();
  let next = 2;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    const sent = req.method === "GET" || req.method === "DELETE" ? {} : await req.json();
    if (path === "/api/comments/") {
      if (req.method === "GET") {
        const results = [...comments].map(([id, body]) => ({ id, body }));
        return Response.json({ count: results.length, results });
      }
      if (!posts.has(sent.post)) return Response.json({ post: ["Invalid pk"] }, { status: 400 });
      comments.set(next++, sent.body);
      return Response.json({ body: sent.body, post: sent.post }, { status: 201 });
    }
    if (path.startsWith("/api/comments/")) {
      const gone = comments.delete(Number(path.split("/")[3]));
      return gone ? new Response(null, { status: 204 }) : Response.json({}, { status: 404 });
    }
    if (path === "/api/posts/") {
      if (req.method === "GET") {
        const results = [...posts].map(([id, p]) => ({ id, ...p }));
        return Response.json({ count: results.length, results });
      }
      posts.set(next++, { title: sent.title, body: sent.body });
      return Response.json({ title: sent.title, body: sent.body }, { status: 201 });
    }
    const id = Number(path.split("/")[3]);
    const post = posts.get(id);
    if (!post) return Response.json({ detail: "Not found." }, { status: 404 });
    if (req.method === "GET") return Response.json({ id, ...post });
    if (id === 1) return Response.json({ detail: "Not yours." }, { status: 403 });
    if (req.method === "DELETE") {
      posts.delete(id);
      return new Response(null, { status: 204 });
    }
    return Response.json({ ...post, ...sent });
  });
}

Deno.test("convert openapi: a create echoing its body reads its item's id from a listing that describes it", async () => {
  const seen: string[] = [];
  const { runs } = await convertAndRunSuite(document("PostList"), standIn(seen), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  for (
    const want of [
      /^PATCH \/api\/posts\/([2-9]|\d\d+)\/$/,
      /^DELETE \/api\/posts\/\d+\/$/,
      /^DELETE \/api\/comments\/\d+\/$/,
    ]
  ) {
    assert.ok(seen.some((s) => want.test(s)), `${want}\n${seen.join("\n")}`);
  }
  assert.ok(!seen.some((s) => /^(PATCH|DELETE) \/api\/posts\/1\/$/.test(s)), seen.join("\n"));
});

Deno.test("convert openapi: a listing that describes no id leaves a create echoing its body searched", async () => {
  const { flows } = await convertAndRunSuite(document("PostPlain"), standIn([]), { runs: 0 });
  const suite = [...flows.values()].join("\n");
  assert.match(suite, /\$\.json\.\.\[/, suite);
});
