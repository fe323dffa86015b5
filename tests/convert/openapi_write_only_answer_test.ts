/**
 * `convert openapi` on a document whose login's one schema is given both
 * ways (drf-spectacular's simplejwt `TokenObtainPair`: `username` and
 * `password` write-only, `access` and `refresh` read-only), beside a create
 * whose body takes a `username` and a `password` too (an admin making
 * accounts). The create's members were filled from the login's answer by
 * name, and the setup flow captured them from it; a write-only member is
 * never in an answer, so the captures matched nothing and the sign-in failed
 * the whole run (a Django library API, 0 of 25 operations). Evidence: a
 * member the answer's schema marks `writeOnly` is no value the answer holds.
 * The stand-in on 127.0.0.1 answers its login with the tokens alone.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const bearer = [{ jwtAuth: [] }];
const listing = { 200: { description: "", ...json({ type: "array", items: {} }) } };

const document = {
  openapi: "3.0.3",
  info: { title: "library", version: "1" },
  paths: {
    "/api/users/login/": {
      post: {
        tags: ["users"],
        requestBody: { required: true, ...json(ref("TokenObtainPair")) },
        responses: { 200: { description: "", ...json(ref("TokenObtainPair")) } },
      },
    },
    "/api/users/": {
      get: { tags: ["users"], security: bearer, responses: listing },
      post: {
        tags: ["users"],
        security: bearer,
        requestBody: { required: true, ...json(ref("Member")) },
        responses: { 201: { description: "", ...json(ref("Member")) } },
      },
    },
    "/api/shelves/": { get: { tags: ["shelves"], security: bearer, responses: listing } },
  },
  components: {
    securitySchemes: { jwtAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    schemas: {
      TokenObtainPair: {
        type: "object",
        required: ["access", "password", "refresh", "username"],
        properties: {
          username: { type: "string", writeOnly: true },
          password: { type: "string", writeOnly: true },
          access: { type: "string", readOnly: true },
          refresh: { type: "string", readOnly: true },
        },
      },
      Member: {
        type: "object",
        required: ["id", "username", "password"],
        properties: {
          id: { type: "integer", readOnly: true },
          username: { type: "string", maxLength: 150 },
          password: { type: "string", writeOnly: true, maxLength: 128 },
        },
      },
    },
  },
};

Deno.test("convert openapi: a login's write-only members are never captured from its answer", async () => {
  const seen: string[] = [];
  const accounts = new Map([["librarian", "shelf-Key-42"]]);
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const got = req.method === "POST" ? await req.json() : {};
    seen.push(`${req.method} ${path}`);
    if (path === "/api/users/login/") {
      return accounts.get(got.username) === got.password
        ? Response.json({ access: "access-1", refresh: "refresh-1" })
        : Response.json({ detail: "No active account" }, { status: 401 });
    }
    if (req.headers.get("authorization") !== "Bearer access-1") {
      return Response.json({ detail: "not authenticated" }, { status: 401 });
    }
    if (req.method === "GET") return Response.json([]);
    if (typeof got.username !== "string" || !got.username || accounts.has(got.username)) {
      return Response.json({ username: ["A user with that username already exists."] }, {
        status: 400,
      });
    }
    accounts.set(got.username, String(got.password));
    return Response.json({ id: accounts.size, username: got.username }, { status: 201 });
  });
  const env = { LOGIN_USERNAME: "librarian", LOGIN_PASSWORD: "shelf-Key-42" };
  const { flows, runs: [run] } = await convertAndRunSuite(document, server, { env: [env] });
  const setup = flows.get(".sign_in.yaml") ?? "";
  assert.doesNotMatch(setup, /\$\.json\.(password|username)/, setup);
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("POST /api/users/"), seen.join("\n"));
  assert.ok(seen.includes("GET /api/shelves/"), seen.join("\n"));
});
