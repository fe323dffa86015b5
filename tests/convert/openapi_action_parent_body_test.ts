/**
 * `convert openapi`: a create under an item that names another collection
 * (`POST /api/issues/{id}/comments/`) but documents its parent's own body
 * (the very schema `POST /api/issues/` takes) sends the body that collection's
 * own create takes (`POST /api/comments/`). drf-spectacular documents a
 * viewset's extra action with the viewset's serializer unless the code says
 * otherwise: a Django REST framework issue tracker (2025) documented its
 * issue's `comments` action as taking an `Issue`, was sent a title and a
 * project, and answered 400 (the comment's `body` is required). A nested
 * create of another noun taking exactly its parent's description is the
 * generator's default, not a description; the sibling collection's create
 * is the document's own description of that noun. An action whose last word
 * names no collection (`publish`) keeps what it documents.
 *
 * The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const idParam = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const made = (name: string) => ({ "201": { description: "made", ...json(ref(name)) } });

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Tracker", version: "1" },
  paths: {
    "/api/issues/": {
      post: {
        tags: ["issues"],
        requestBody: { required: true, ...json(ref("Issue")) },
        responses: made("Issue"),
      },
    },
    "/api/issues/{id}/": {
      parameters: idParam,
      get: {
        tags: ["issues"],
        responses: { "200": { description: "one", ...json(ref("Issue")) } },
      },
      delete: { tags: ["issues"], responses: { "204": { description: "gone" } } },
    },
    "/api/issues/{id}/comments/": {
      parameters: idParam,
      post: {
        tags: ["issues"],
        requestBody: { required: true, ...json(ref("Issue")) },
        responses: made("Issue"),
      },
    },
    "/api/issues/{id}/publish/": {
      parameters: idParam,
      post: {
        tags: ["issues"],
        requestBody: { required: true, ...json(ref("Issue")) },
        responses: made("Issue"),
      },
    },
    "/api/comments/": {
      post: {
        tags: ["comments"],
        requestBody: { required: true, ...json(ref("Comment")) },
        responses: made("Comment"),
      },
    },
    "/api/comments/{id}/": {
      parameters: idParam,
      get: {
        tags: ["comments"],
        responses: { "200": { description: "one", ...json(ref("Comment")) } },
      },
      delete: { tags: ["comments"], responses: { "204": { description: "gone" } } },
    },
  },
  components: {
    schemas: {
      Issue: {
        type: "object",
        required: ["id", "title"],
        properties: { id: { type: "integer", readOnly: true }, title: { type: "string" } },
      },
      Comment: {
        type: "object",
        required: ["id", "body"],
        properties: { id: { type: "integer", readOnly: true }, body: { type: "string" } },
      },
    },
  },
};

Deno.test("convert openapi: a create under an item naming another collection, documented with its parent's body, sends that collection's create body", async () => {
  const items = new Map<string, string>();
  const refused: string[] = [];
  let count = 0;
  const server = serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    const [, noun, id, action] = parts;
    if (req.method === "POST") {
      const body = await req.json();
      const kind = action === "comments" ? "comments" : action === "publish" ? "issues" : noun;
      const needs = kind === "comments" ? "body" : "title";
      if (typeof body[needs] !== "string" || (action === undefined && id !== undefined)) {
        refused.push(`${req.url} ${JSON.stringify(body)}`);
        return Response.json({ [needs]: ["This field is required."] }, { status: 400 });
      }
      const key = String(++count); // never reused: flows run at once and delete
      items.set(key, kind);
      // Both members answered: the answer's check is the document's, not this rule's.
      return Response.json({ id: Number(key), title: "t", body: "b" }, { status: 201 });
    }
    const found = items.get(id) === noun;
    if (req.method === "DELETE" && found) items.delete(id);
    if (!found) return new Response(null, { status: 404 });
    return req.method === "DELETE"
      ? new Response(null, { status: 204 })
      : Response.json({ id: Number(id), title: "t", body: "b" });
  });
  const { runs, flows, summary } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + summary + refused.join("\n"));
  const issues = flows.get("issues.yaml") ?? "";
  const comment = /- name: \w*comments\w*\n(?:.*\n)*?\s+body:\n\s+(\w+):/.exec(issues);
  assert.equal(comment?.[1], "body", issues);
  const publish = /- name: \w*publish\w*\n(?:.*\n)*?\s+body:\n\s+(\w+):/.exec(issues);
  assert.equal(publish?.[1], "title", "an action naming no collection keeps its documented body");
  assert.deepEqual(refused, []);
});
