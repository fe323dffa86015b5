/**
 * `convert openapi` on a document whose sign-up answers the same token as
 * its login (RealWorld's `POST /users` and `POST /users/login` both answer
 * a `UserResponse` with `user.token`): every flow whose operations need the
 * token signed up and then logged in, two requests per flow, and a real
 * RealWorld backend allows 20 sign-ups and logins per address per 15
 * minutes, so a second run of its 3.0 document was refused its last logins
 * (429). A flow that does not test the login now takes the token from its
 * sign-up's own answer, where the document shows it (at the login's path,
 * or, when the token is found by name, in the login's own answer schema);
 * the login is still sent where it is tested. Since the run signs in once
 * (tests/convert/openapi_login_once_test.ts), that sign-up is sent once a
 * run, by its setup flow. The stand-in runs on
 * 127.0.0.1 and refuses the 13th sign-up or login with 429.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A document of one shape or the other: the token at a path of the schema, or found by name. */
function document(tokenInSchema: boolean) {
  const user = {
    type: "object",
    required: ["user"],
    properties: {
      user: {
        type: "object",
        properties: {
          email: { type: "string" },
          ...(tokenInSchema ? { token: { type: "string" } } : {}),
        },
      },
    },
  };
  const answer = { description: "The signed-in user", ...json({ $ref: "#/components/schemas/U" }) };
  const credentials = (extra: object) => ({
    required: true,
    ...json({
      type: "object",
      required: ["user"],
      properties: {
        user: {
          type: "object",
          required: ["email", "password"],
          properties: {
            email: { type: "string" },
            password: { type: "string" },
            ...extra,
          },
        },
      },
    }),
  });
  const note = { type: "object", properties: { id: { type: "integer" } } };
  const protectedOp = (tag: string) => ({ tags: [tag], responses: { 200: answer } });
  return {
    openapi: "3.0.3",
    info: { title: "signup", version: "1" },
    tags: [{ name: "Users" }, { name: "Notes" }, { name: "Lists" }, { name: "Me" }],
    security: [{ key: [] }],
    components: {
      schemas: { U: user },
      securitySchemes: {
        key: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: tokenInSchema
            ? "`Token xxx.yyy.zzz`"
            : "A token from /users/login, sent as `Token xxx.yyy.zzz`",
        },
      },
    },
    paths: {
      "/users": {
        post: {
          tags: ["Users"],
          security: [],
          requestBody: credentials({ username: { type: "string" } }),
          responses: { 201: answer },
        },
      },
      "/users/login": {
        post: {
          tags: ["Users"],
          security: [],
          requestBody: credentials({}),
          responses: { 200: answer },
        },
      },
      "/user": { get: protectedOp("Users") },
      "/notes": {
        get: { tags: ["Notes"], responses: { 200: { description: "", ...json(note) } } },
      },
      "/lists": {
        get: { tags: ["Lists"], responses: { 200: { description: "", ...json(note) } } },
      },
      "/me": { get: protectedOp("Me") },
    },
  };
}

/** The stand-in: sign-ups and logins count toward a limit of 12; every other call needs a token it issued. */
function standIn() {
  const tokens = new Set<string>();
  const counted = { signIns: 0, logins: 0, refused: 0, unauthorized: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/users" || path === "/users/login") {
      if (++counted.signIns > 12) {
        counted.refused++;
        return new Response("Too many requests", { status: 429 });
      }
      if (path === "/users/login") counted.logins++;
      const body = await req.json();
      const token = `t${tokens.size + 1}`;
      tokens.add(token);
      const user = { email: body.user.email, token };
      return Response.json({ user }, { status: path === "/users" ? 201 : 200 });
    }
    const token = /^Token (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      counted.unauthorized++;
      return Response.json({ errors: "unauthorized" }, { status: 401 });
    }
    return Response.json(path === "/notes" || path === "/lists" ? { id: 1 } : { user: {} });
  });
  return { server, counted };
}

for (const tokenInSchema of [true, false]) {
  Deno.test(
    `convert openapi: a flow that does not test the login takes the token its sign-up answers (the token ${
      tokenInSchema ? "at a path of the schema" : "found by name"
    })`,
    async () => {
      const { server, counted } = standIn();
      const { runs, summary } = await convertAndRunSuite(document(tokenInSchema), server, {
        runs: 2,
      });
      for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
      // Each run: the run's one sign-up (a setup flow, sign_in_once.ts), and the login where it
      // is tested (5 sign-ups and logins a run before, one per flow).
      assert.deepEqual(counted, { signIns: 4, logins: 2, refused: 0, unauthorized: 0 });
    },
  );
}
