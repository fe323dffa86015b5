/**
 * `convert openapi`: a member a schema declares as a plain value while the same schema's own
 * `example` shows an object there is read by the example's shape. A Hapi social API documents
 * every answer as one envelope, `{statusCode, message, data}` with `data` a Joi string, and gives
 * each schema an `example` whose `data` is the item (`{user: {id, …}}`). Read by its declared
 * type, the create's answer held no id, every read, update and delete of an item asked for a
 * placeholder, and the run sent the placeholder's made-up id: 404 each. The example is the
 * producer's own statement of the answer, beside the type it contradicts; an example that agrees
 * with its type (a string where a string is declared) changes nothing.
 *
 * The stand-in below keeps its notebooks in memory on 127.0.0.1 and answers as that API does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** The envelope each answer is documented as, with `data` declared a string and shown an object. */
function envelope(data: unknown) {
  return {
    type: "object",
    example: { statusCode: 200, message: "Done", data },
    properties: {
      statusCode: { type: "number" },
      message: { type: "string" },
      data: { type: "string" },
    },
    required: ["statusCode", "message", "data"],
  };
}

function answer(data: unknown, status = "200") {
  return {
    [status]: {
      description: "Done",
      content: { "application/json": { schema: envelope(data) } },
    },
  };
}

/** A notebooks API whose create answers `{data: {notebook: {id, title}}}`, as its examples show. */
function document() {
  const notebook = { id: "0b7c2f5e-5d1a-4d0e-9a59-2f0c3b1e8a11", title: "Field notes" };
  const body = {
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["title"],
          properties: { title: { type: "string", example: "Field notes" } },
        },
      },
    },
  };
  const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];
  return {
    openapi: "3.0.0",
    info: { title: "Notebooks", version: "1" },
    servers: [{ url: "http://localhost/api" }],
    paths: {
      "/notebooks": {
        post: { tags: ["notebooks"], requestBody: body, responses: answer({ notebook }, "201") },
      },
      "/notebooks/{id}": {
        get: { tags: ["notebooks"], parameters: id, responses: answer({ notebook }) },
        put: {
          tags: ["notebooks"],
          parameters: id,
          requestBody: body,
          responses: answer({ notebook }),
        },
        delete: { tags: ["notebooks"], parameters: id, responses: answer(null) },
      },
    },
  };
}

/** The stand-in, and every status it answered, by method and path. */
function server() {
  const notebooks = new Map<string, { id: string; title: string }>();
  const answered: string[] = [];
  const reply = (req: Request, status: number, data: unknown) => {
    answered.push(`${req.method} ${new URL(req.url).pathname} ${status}`);
    return Response.json({ statusCode: status, message: "Done", data }, { status });
  };
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/notebooks") {
      const { title } = await req.json();
      const notebook = { id: crypto.randomUUID(), title };
      notebooks.set(notebook.id, notebook);
      return reply(req, 201, { notebook });
    }
    const id = /^\/api\/notebooks\/([^/]+)$/.exec(path)?.[1] ?? "";
    const notebook = notebooks.get(id);
    if (!notebook) return reply(req, 404, null);
    if (req.method === "PUT") notebook.title = (await req.json()).title;
    if (req.method === "DELETE") notebooks.delete(id);
    return reply(req, 200, req.method === "DELETE" ? null : { notebook });
  });
  return { stand, answered };
}

Deno.test("an id the create's schema example shows under a member declared a string is read", async () => {
  const { stand, answered } = server();
  const { summary, runs } = await convertAndRunSuite(document(), stand);
  assert.doesNotMatch(summary, /Fill in/, summary);
  const out = `${summary}\n${runs[0].stdout}\n${answered.join("\n")}`;
  assert.equal(answered.length, 4, out);
  for (const line of answered) assert.match(line, / 20[01]$/, out);
});

Deno.test("an example agreeing with its declared string changes nothing", async () => {
  const doc = document();
  const post = doc.paths["/notebooks"].post.responses["201"].content["application/json"];
  post.schema.example = { statusCode: 201, message: "Done", data: "made" };
  const { stand } = server();
  const { summary } = await convertAndRunSuite(doc, stand);
  assert.match(summary, /Fill in 1 placeholder/, summary);
});
