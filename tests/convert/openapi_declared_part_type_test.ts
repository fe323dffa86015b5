/**
 * `convert openapi`: a multipart file whose media type the document states
 * (`encoding: {image: {contentType: image/*}}`, or a 3.1 property's
 * `contentMediaType`) is sent as that type. Found on an Express recipes API
 * measured by hand: its recipe create requires an `image`, "image/*" by its
 * encoding, and its upload filter refuses any part whose type is not an
 * image. The suite sent a text placeholder named `.bin`, so
 * `application/octet-stream`: 400 "Only image files are allowed", and the
 * recipe's read, update, delete and favorites were skipped. A user who put
 * a real picture in that placeholder, as the summary asked, got the same
 * 400: the name `.bin` still set the type. Where the stated type admits a
 * PNG, the part is a 1×1 PNG the flow holds (`content_base64`), no
 * placeholder to fill; another stated type (`application/pdf`) keeps the
 * placeholder, sent with that type; a type the document does not state
 * stays as before.
 *
 * The stand-in runs on 127.0.0.1 and, as the upload filter there does,
 * refuses a part that is not an image; it also checks the PNG's signature.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const idParam = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const binary = { type: "string", format: "binary" };
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

/** A create of `{title, image}` at `/recipes` with `media`'s extra keys, and its item's read. */
function document(media: Record<string, unknown>, image: Record<string, unknown> = binary) {
  const schema = {
    type: "object",
    required: ["title", "image"],
    properties: { title: { type: "string" }, image },
  };
  return {
    openapi: "3.1.0",
    info: { title: "Recipes", version: "1" },
    paths: {
      "/recipes": {
        post: {
          requestBody: { content: { "multipart/form-data": { schema, ...media } } },
          responses: created,
        },
      },
      "/recipes/{id}": {
        get: { parameters: idParam, responses: { "200": { description: "The recipe" } } },
      },
    },
  };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Recipes: its file part must be an image (and a PNG's bytes when it says PNG); `types` lists them. */
function recipes(types: string[]) {
  let made = 0;
  return serveStandIn(async (req) => {
    if (req.method === "GET") {
      const id = Number(new URL(req.url).pathname.split("/").at(-1));
      return id >= 1 && id <= made ? Response.json({ id }) : new Response(null, { status: 404 });
    }
    const file = (await req.formData()).get("image");
    if (!(file instanceof File)) return Response.json({ message: "image?" }, { status: 400 });
    types.push(file.type);
    const head = [...new Uint8Array(await file.arrayBuffer()).slice(0, 8)];
    const png = file.type === "image/png" && PNG_SIGNATURE.every((b, i) => head[i] === b);
    if (!png) return Response.json({ message: "Only image files are allowed" }, { status: 400 });
    return Response.json({ id: ++made }, { status: 201 });
  });
}

for (
  const [how, media, image] of [
    ["an encoding's image/*", { encoding: { image: { contentType: "image/*" } } }, binary],
    [
      "an encoding's list",
      { encoding: { image: { contentType: "image/png, image/jpeg" } } },
      binary,
    ],
    ["a 3.1 contentMediaType", {}, { type: "string", contentMediaType: "image/png" }],
  ] as const
) {
  Deno.test(`a file part stated as an image (${how}) is sent as a PNG, no placeholder`, async () => {
    const types: string[] = [];
    const { runs, summary, flows } = await convertAndRunSuite(
      document(media, image),
      recipes(types),
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.deepEqual(types, ["image/png", "image/png"]);
    assert.doesNotMatch(summary, /uploads as "image"/, summary);
    assert.match([...flows.values()].join("\n"), /content_type: image\/png/);
  });
}

Deno.test("another stated type keeps its placeholder, sent as that type; an unstated one as before", async () => {
  const pdf = { encoding: { image: { contentType: "application/pdf" } } };
  for (
    const [media, type] of [[pdf, "application/pdf"], [{}, "application/octet-stream"]] as const
  ) {
    const types: string[] = [];
    const { summary } = await convertAndRunSuite(document(media), recipes(types));
    assert.match(summary, /files\/post_recipes_image\.bin: the file step post_recipes uploads/);
    assert.deepEqual(types, [type]);
  }
});
