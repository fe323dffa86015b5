/**
 * `convert openapi`: a listing whose items wrap the item under its model's
 * name beside an aggregate, as FastAPI answers a SQLAlchemy
 * `select(Blog, func.count(Vote.blog_id).label("votes"))` row: `[{Blog:
 * {...}, votes}]`. Found on a FastAPI blog API measured by hand: its
 * vote's `blog_id` (an integer) was read from `$.json[0].Blog`, the whole
 * object, and sent as such (422, "value is not a valid integer"). The
 * member named for the noun is the item, not its id: the id is read inside
 * it (`$.json[0].Post.id`); when the wrapped item shows no id (that API's
 * `ShowBlog`), the listing gives none and the create's own answer, which
 * the document does not describe, is searched for it.
 *
 * The stand-in server below answers as FastAPI does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const int = { type: "integer" };
const text = { type: "string" };
const ok = (schema: unknown) => ({ "200": { description: "OK", content: json(schema) } });
const body = (required: string[], props: Record<string, unknown>) => ({
  required: true,
  content: json({ title: "Body", type: "object", required, properties: props }),
});

/** Posts whose rows show the post's id, blogs whose rows do not; a vote names one of each. */
function document(): Record<string, unknown> {
  const row = (model: string) => ({
    title: `${model}Out`,
    type: "object",
    required: [model, "votes"],
    properties: { [model]: { $ref: `#/components/schemas/${model}` }, votes: int },
  });
  const made = { "201": { description: "Successful Response", content: json({}) } };
  return {
    openapi: "3.0.2",
    info: { title: "FastAPI", version: "0.1.0" },
    paths: {
      "/posts/": {
        get: { tags: ["Posts"], responses: ok({ type: "array", items: row("Post") }) },
        post: { tags: ["Posts"], requestBody: body(["title"], { title: text }), responses: made },
      },
      "/blogs/": {
        get: { tags: ["Blogs"], responses: ok({ type: "array", items: row("Blog") }) },
        post: { tags: ["Blogs"], requestBody: body(["title"], { title: text }), responses: made },
      },
      "/vote/": {
        post: {
          tags: ["Vote"],
          requestBody: body(["post_id", "blog_id", "dir"], {
            post_id: int,
            blog_id: int,
            dir: { type: "integer", enum: [0, 1] },
          }),
          responses: made,
        },
      },
    },
    components: {
      schemas: {
        Post: { title: "Post", type: "object", properties: { id: int, title: text } },
        Blog: { title: "Blog", type: "object", properties: { title: text } },
      },
    },
  };
}

/** FastAPI's answers: a vote naming no post or blog that exists is refused (422 or 404). */
function api() {
  const posts: { id: number; title: string }[] = [];
  const blogs: { id: number; title: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const list = pathname === "/posts/" ? posts : blogs;
    if (req.method === "GET") {
      const model = pathname === "/posts/" ? "Post" : "Blog";
      const shown = (item: { id: number; title: string }) =>
        model === "Post" ? item : { title: item.title };
      return Response.json(list.map((item) => ({ [model]: shown(item), votes: 0 })));
    }
    const sent = await req.json();
    if (pathname !== "/vote/") {
      const item = { id: list.length + 3, title: String(sent.title) };
      list.push(item);
      return Response.json(item, { status: 201 });
    }
    for (const loc of ["post_id", "blog_id"]) {
      if (typeof sent[loc] === "number") continue;
      const detail = [{ loc: ["body", loc], msg: "value is not a valid integer" }];
      return Response.json({ detail }, { status: 422 });
    }
    const found = posts.some((p) => p.id === sent.post_id) &&
      blogs.some((b) => b.id === sent.blog_id);
    return Response.json({ message: "voted" }, { status: found ? 201 : 404 });
  });
}

Deno.test("an id under a row's model is read inside it, never the model's object", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), api(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /post_id of POST \/vote\/ ← GET \/posts\/ \$\.json\[0\]\.Post\.id/);
  assert.match(summary, /blog_id of POST \/vote\/ ← POST \/blogs\/ \$\.json\.\.\['blog_id','id'\]/);
  assert.doesNotMatch(summary, /\$\.json\[0\]\.(Post|Blog) /);
});
