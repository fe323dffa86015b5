/**
 * A `content` map that holds a `schema` where a media type belongs
 * (`content: {schema: …}`) is a Media Type Object with its media type left
 * out. Found on a LoopBack 4 (1.x) blog API measured by hand (see
 * docs/real-servers.md): its sign-up answers so, as code copied from an
 * early LoopBack tutorial writes it, so the account's `id` it answers was
 * never read and `PUT /users/{id}` and `POST /users/{id}/blogs` became two
 * placeholders to fill in. Such a map is now read under the one media type
 * the document's other content maps name (`application/json` there); a
 * document naming several, or none, leaves it as it is.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const note = {
  type: "object",
  properties: { id: { type: "number" }, text: { type: "string" } },
  required: ["id", "text"],
};

const DOC = {
  openapi: "3.0.0",
  info: { title: "Notes", version: "1" },
  paths: {
    "/notes": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { text: { type: "string" } },
                required: ["text"],
              },
            },
          },
        },
        // The media type left out: the schema sits where `application/json` belongs.
        responses: { "200": { description: "The note", content: { schema: note } } },
      },
    },
    "/notes/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
        responses: {
          "200": { description: "The note", content: { "application/json": { schema: note } } },
        },
      },
    },
  },
};

Deno.test("a content map holding a schema where its media type belongs is read as the document's JSON", async () => {
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST" && path === "/notes") {
      const body = await req.json();
      return Response.json({ id: 41, text: body.text });
    }
    if (req.method === "GET" && path === "/notes/41") return Response.json({ id: 41, text: "x" });
    return new Response("no", { status: 404 });
  });
  const { runs, summary } = await convertAndRunSuite(DOC, server);
  assert.match(summary, /\{id\} of GET \/notes\/\{id\} ← POST \/notes \$\.json\.id/);
  assert.match(summary, /No placeholders to fill in/);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.deepEqual(seen, ["POST /notes", "GET /notes/41"]);
});
