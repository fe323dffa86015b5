/**
 * `convert openapi` on a multipart create whose file is optional beside a
 * text it requires: a social media API measured by hand (Express, multer,
 * `swagger-jsdoc`, 2025) documents `POST /api/posts` as `{content, image}`,
 * `required: [content]`, `image` "The optional image of the post"
 * (`format: binary`). The suite sent the placeholder file as `image`, the
 * upload filter refused it 400 ("File uploaded is not an image"), and the
 * post's read, like, update, delete and its comments were skipped. The
 * placeholder is no file of the kind a server checks for; the request's
 * point is the text it requires, so the optional file is left out and the
 * step's comment says so. An upload whose body requires no text (a file
 * transfer's `{file}`) still sends its file.
 *
 * The stand-in runs on 127.0.0.1 and refuses, as multer's filter there does,
 * any file whose type is not an image.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const idParam = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const created = {
  "201": {
    description: "Created",
    content: {
      "application/json": {
        schema: { type: "object", properties: { id: { type: "integer" } } },
      },
    },
  },
};

/** A create of `schema` (multipart, with the `example` given) at `/posts`, and its item's read. */
function document(schema: Record<string, unknown>, example?: Record<string, unknown>) {
  return {
    openapi: "3.0.0",
    info: { title: "Posts", version: "1" },
    paths: {
      "/posts": {
        post: {
          requestBody: { content: { "multipart/form-data": { schema, example } } },
          responses: created,
        },
      },
      "/posts/{id}": {
        get: { parameters: idParam, responses: { "200": { description: "The post" } } },
      },
    },
  };
}

/** Posts: a file part must be an image; `files` counts the file parts it was sent. */
function posts(files: string[]) {
  const made: FormData[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET") {
      const id = Number(pathname.split("/").at(-1));
      return made[id - 1] ? Response.json({ id }) : new Response(null, { status: 404 });
    }
    const form = await req.formData();
    for (const [name, value] of form) {
      if (typeof value === "string") continue;
      files.push(name);
      if (!value.type.startsWith("image/")) {
        return Response.json({ error: "File uploaded is not an image" }, { status: 400 });
      }
    }
    made.push(form);
    return Response.json({ id: made.length }, { status: 201 });
  });
}

const binary = { type: "string", format: "binary" };

for (const example of [undefined, { content: "Hello", image: "photo.png" }]) {
  Deno.test(`an optional file beside a required text is left out (${example ? "an example names it" : "no example"})`, async () => {
    const files: string[] = [];
    const schema = {
      type: "object",
      required: ["content"],
      properties: { content: { type: "string" }, image: { ...binary, description: "Optional." } },
    };
    const { runs, summary, flows } = await convertAndRunSuite(
      document(schema, example),
      posts(files),
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.deepEqual(files, []);
    assert.match([...flows.values()].join("\n"), /optional, left out: multipart image \(a file\)/);
    assert.doesNotMatch(summary, /uploads as "image"/, "no placeholder file to fill in");
  });
}

Deno.test("a file the body requires, or a body that requires no text, still sends its file", async () => {
  for (
    const schema of [
      {
        type: "object",
        required: ["content", "image"],
        properties: { content: {}, image: binary },
      },
      { type: "object", properties: { note: { type: "string" }, file: binary } },
    ]
  ) {
    const { summary } = await convertAndRunSuite(document(schema), posts([]));
    assert.match(summary, /files\/post_posts_(image|file)\.bin: the file step post_posts uploads/);
  }
});
