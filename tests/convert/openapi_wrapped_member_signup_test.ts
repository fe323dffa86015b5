/**
 * `convert openapi` on a sign-up and login whose body holds a member pydantic 1
 * wraps: a referenced schema given a default or a description is written
 * `{allOf: [{$ref}], default: 1}`, with no `type` or `enum` of its own. Found on
 * a FastAPI appointments API (measured by hand, 2026-11-30): its `AuthUser`
 * `{username, password, role}` is the body of both `POST /api/register` and
 * `POST /api/login`, `role` wrapping an integer enum `[1, 2]`. The wrapped
 * member, typeless, was read as a text name the login signs in with, so the
 * sign-up sent `role: ${vars.username}`, was refused 422 ("value is not a valid
 * integer"), and every step needing the token was refused 401 (0 of 42). A
 * member's kind is what it wraps: a wrapped choice or number is no identity,
 * and the sign-up leaves it to its default. Run twice on one server with
 * `BASE_URL` alone.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };

/** The account's body; `wrapped` names the schema its `role` member wraps. */
function document(wrapped: Record<string, unknown>) {
  const account = {
    type: "object",
    required: ["username", "password"],
    properties: {
      username: text,
      password: text,
      role: { allOf: [{ $ref: "#/components/schemas/Role" }], default: 1 },
    },
  };
  const token = { type: "object", properties: { access_token: text } };
  return {
    openapi: "3.0.2",
    info: { title: "appointments", version: "1" },
    security: [{ jwt: [] }],
    components: {
      securitySchemes: { jwt: { type: "http", scheme: "bearer" } },
      schemas: { Role: { title: "Role", description: "An enumeration.", ...wrapped } },
    },
    paths: {
      "/api/register": {
        post: {
          security: [],
          requestBody: json(account),
          responses: { 200: { description: "Registered", ...json({}) } },
        },
      },
      "/api/login": {
        post: {
          security: [],
          requestBody: json(account),
          responses: { 200: { description: "Token", ...json(token) } },
        },
      },
      "/api/me": {
        get: { responses: { 200: { description: "Me", ...json(text) } } },
      },
    },
  };
}

/** Accounts by user name; a `role` that is no integer is refused 422, as pydantic does. */
function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const counted = { registered: 0, refused: 0, signedIn: 0, read: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/register" || path === "/api/login") {
      const body = await req.json();
      if (body.role !== undefined && !Number.isInteger(body.role)) {
        counted.refused++;
        return Response.json({ detail: [{ msg: "value is not a valid integer" }] }, {
          status: 422,
        });
      }
      if (path === "/api/register") {
        accounts.set(body.username, body.password);
        return counted.registered++, Response.json({ username: body.username });
      }
      if (accounts.get(body.username) !== body.password) {
        return Response.json({ detail: "username or password invalid" }, { status: 422 });
      }
      const token = crypto.randomUUID();
      tokens.add(token);
      return counted.signedIn++, Response.json({ access_token: token });
    }
    const auth = req.headers.get("authorization") ?? "";
    if (!tokens.has(auth.replace(/^Bearer /, ""))) return new Response("no", { status: 401 });
    return counted.read++, Response.json("me");
  });
  return { server, counted };
}

const wrappings: [string, Record<string, unknown>][] = [
  ["an integer choice", { type: "integer", enum: [1, 2] }],
  ["a number", { type: "integer" }],
];

for (const [kind, wrapped] of wrappings) {
  Deno.test(`convert openapi: a sign-up's member wrapping ${kind} is no identity`, async () => {
    const { server, counted } = standIn();
    const { runs, summary } = await convertAndRunSuite(document(wrapped), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.deepEqual(counted, { registered: 2, refused: 0, signedIn: 2, read: 2 }, summary);
  });
}
