/**
 * `convert openapi`: a request body property naming an item of a noun the
 * document creates, whose create answers no id (`201 {description}` and no
 * content), found on a Flask library API measured by hand (its book copies
 * name their title by `book_title_id`, its borrowings their copy by
 * `book_copy_id`): the run sent the type's sample (`1`), which names no
 * title on a fresh server (400), and the borrowing made of the copy never
 * came either; a name of several words in snake case (`book_title_id`)
 * named no noun at all. The listing of the created noun (`GET /book_titles` →
 * `{items: [{id}], page}`) shows where its items' ids are: the value is its
 * first item's, read right after the create, in each flow that needs it.
 * A create whose answer holds the id still gives it (body_links.ts); a
 * POST that sends ids of its own noun (a title's `tags`) attaches items
 * that exist and makes none, so its listing gives no id of one it made.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const int = { type: "integer" };
const text = { type: "string" };
const item = { type: "object", properties: { id: int, name: text } };
const listing = {
  "200": {
    description: "A page",
    content: json({
      type: "object",
      properties: { items: { type: "array", items: item }, page: { type: "object" } },
    }),
  },
};
const body = (required: string[], props: Record<string, unknown>) => ({
  required: true,
  content: json({ type: "object", required, properties: props }),
});
const idParam = [{ name: "id", in: "path", required: true, schema: int }];

/** Titles and their copies, each under its own tag; a title's create answers no id. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.0",
    info: { title: "Library", version: "1" },
    paths: {
      "/book_titles": {
        get: { tags: ["Titles"], responses: listing },
        post: {
          tags: ["Titles"],
          requestBody: body(["name"], { name: text }),
          responses: { "201": { description: "Title created" } },
        },
      },
      "/book_titles/{id}": {
        get: { tags: ["Titles"], parameters: idParam, responses: { "200": { description: "A" } } },
      },
      // Tags exist already: a title's POST attaches some (it sends their ids), it makes none.
      "/book_titles/{id}/tags": {
        get: { tags: ["Tags"], parameters: idParam, responses: listing },
        post: {
          tags: ["Tags"],
          parameters: idParam,
          requestBody: body(["tags"], { tags: { type: "array", items: int } }),
          responses: { "201": { description: "Tags attached" } },
        },
        put: {
          tags: ["Tags"],
          parameters: idParam,
          requestBody: body(["tags"], { tags: { type: "array", items: int } }),
          responses: { "200": { description: "Tags replaced" } },
        },
      },
      "/copies": {
        get: { tags: ["Copies"], responses: listing },
        post: {
          tags: ["Copies"],
          requestBody: body(["book_title_id", "barcode"], { book_title_id: int, barcode: text }),
          responses: { "201": { description: "Copy created" } },
        },
      },
    },
  };
}

/** Titles from 7 on; a copy of a title that does not exist is refused (400), as the API does. */
function library() {
  const titles: { id: number; name: string }[] = [];
  const copies: { id: number; name: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const page = { page: 1 };
    if (req.method === "GET" && pathname === "/book_titles") {
      return Response.json({ items: titles, page });
    }
    if (req.method === "GET" && pathname === "/copies") {
      return Response.json({ items: copies, page });
    }
    if (pathname.endsWith("/tags")) {
      return Response.json({ items: [], page }, { status: req.method === "POST" ? 201 : 200 });
    }
    if (req.method === "GET") {
      const found = titles.some((t) => `/book_titles/${t.id}` === pathname);
      return Response.json({}, { status: found ? 200 : 404 });
    }
    const sent = await req.json();
    if (pathname === "/book_titles") {
      titles.push({ id: titles.length + 7, name: String(sent.name) });
      return Response.json({ message: "Title created" }, { status: 201 });
    }
    if (!titles.some((t) => t.id === sent.book_title_id)) {
      return Response.json({ message: "Invalid book_title_id" }, { status: 400 });
    }
    copies.push({ id: copies.length + 1, name: String(sent.barcode) });
    return Response.json({ message: "Copy created" }, { status: 201 });
  });
}

Deno.test("a body id of a noun whose create answers no id reads its listing after the create", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), library(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(
    summary,
    /book_title_id of POST \/copies ← GET \/book_titles \$\.json\.items\[0\]\.id \(the first of its listing, after POST \/book_titles\)/,
  );
  assert.doesNotMatch(summary, /tags\[\] of/);
  // The copies' flow makes its own title and lists it before the copy names it.
  const copies = [...flows.entries()].find(([file]) => file.startsWith("copies"))?.[1] ?? "";
  const at = (step: string) => copies.indexOf(`name: ${step}`);
  assert.ok(at("post_book_titles") >= 0 && at("post_book_titles") < at("get_book_titles"), copies);
  assert.ok(at("get_book_titles") < at("post_copies"), copies);
});
