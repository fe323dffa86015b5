/**
 * `convert openapi` on a body naming a user (`{body, userId, articleId}`
 * of a Hono backend's `POST /api/comment`) where the document has two
 * creates of users that answer the same schema: the sign-up the suite
 * registers its account with (`POST /api/auth/register`) and the users'
 * collection (`POST /api/user`, which only an administrator may call; the
 * document does not say so). The id was read from the collection's create,
 * refused (401) for the signed-up account, so the comment was never sent.
 * An id a body names of what the sign-up makes too (the same answer) is
 * now the signed-in account's own, which the suite makes anyway. The
 * stand-in runs on 127.0.0.1 and the suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { withOwnAccount } from "../../lib/convert/openapi/own_account.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };

const USER = {
  type: "object",
  required: ["id", "username"],
  properties: { id: { type: "number" }, username: text },
};
const ANSWER_USER = { 200: { description: "The user", ...json(USER) } };
const CREDENTIALS = {
  type: "object",
  required: ["username", "password"],
  properties: { username: text, password: text },
};
const BEARER = [{ Bearer: [] }];

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "comments", version: "1" },
  components: { securitySchemes: { Bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    "/auth/register": {
      post: { tags: ["auth"], requestBody: json(CREDENTIALS), responses: ANSWER_USER },
    },
    "/auth/login": {
      post: {
        tags: ["auth"],
        requestBody: json(CREDENTIALS),
        responses: {
          200: {
            description: "Signed in",
            ...json({ type: "object", properties: { token: text } }),
          },
        },
      },
    },
    "/users": {
      post: {
        tags: ["user"],
        security: BEARER,
        requestBody: json(CREDENTIALS),
        responses: ANSWER_USER,
      },
      get: {
        tags: ["user"],
        security: BEARER,
        responses: { 200: { description: "All", ...json({ type: "array", items: USER }) } },
      },
    },
    "/users/{id}": {
      get: {
        tags: ["user"],
        security: BEARER,
        parameters: [{ name: "id", in: "path", required: true, schema: text }],
        responses: ANSWER_USER,
      },
    },
    "/comments": {
      post: {
        tags: ["comment"],
        security: BEARER,
        requestBody: json({
          type: "object",
          required: ["body", "userId"],
          properties: { body: text, userId: { type: "number" } },
        }),
        responses: {
          200: {
            description: "Made",
            ...json({ type: "object", properties: { id: { type: "number" } } }),
          },
        },
      },
    },
  },
};

Deno.test("convert openapi: a user id a body names is the signed-up account's when the sign-up answers the same user", async () => {
  const users = new Map<string, number>();
  const comments: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => ({}));
    if (path === "/auth/register") {
      users.set(body.username, users.size + 1);
      return Response.json({ id: users.size, username: body.username });
    }
    if (path === "/auth/login") return Response.json({ token: `t-${users.get(body.username)}` });
    const me = Number(req.headers.get("authorization")?.replace(/^Bearer t-/, ""));
    if (!me) return new Response(null, { status: 401 });
    // Only an administrator manages users; a signed-up account is none.
    if (path === "/users") {
      return Response.json({ message: "Current role Unauthorized" }, { status: 401 });
    }
    if (body.userId !== me) return Response.json({ message: "not yours" }, { status: 403 });
    comments.push(body.body);
    return Response.json({ id: comments.length });
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  assert.equal(comments.length, 2, runs.map((r) => r.stdout).join("\n"));
});

Deno.test("convert openapi: a body's id whose create answers only the shape every create answers ({id}) keeps its own producer", () => {
  const created = { type: "object", properties: { id: { type: "number" } } };
  const answer = { 201: { content: { "application/json": { schema: created } } } };
  const op = (template: string) => ({ method: "POST", template, node: { responses: answer } });
  const [register, articles] = [op("/register"), op("/articles")];
  const comment = op("/comments");
  const link = {
    param: "articleId",
    producer: articles,
    path: ["id"],
    from: "property",
    body: ["articleId"],
  };
  const login = { op: register, path: [], register, schemes: new Map() };
  const doc = { paths: {} };
  const got = withOwnAccount(doc, {
    params: new Map(),
    body: new Map([[comment, [link]]]),
    login,
  } as never);
  assert.equal(got.body?.get(comment as never)?.[0].producer, articles);
});
