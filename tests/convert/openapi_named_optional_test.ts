/**
 * `convert openapi`: a create sends the optional names its schema lists.
 * Found on an Express API documented by swagger-jsdoc comments, measured by
 * hand (docs/real-servers.md): its sign-up `POST /users` requires `email`
 * and `password` and lists `firstName` and `lastName` without requiring
 * them, while its table holds both `NOT NULL`; the sign-up sent the two
 * required members alone (400 "null value in column first_name"), the
 * login after it found no account, and every flow was skipped. A comment
 * written by hand says what a member is, seldom whether the code needs it.
 * A name (a member whose key ends in `name` or `title`) is what a form asks
 * its user for, free text a server takes where it is optional, and made
 * per run (`<text>-<random>`), so one server keeping it UNIQUE takes a
 * second run. What a name may not be is left out as before: one naming an
 * item of a collection the paths address (`roleName` beside `/roles`,
 * which must exist), a read-only one, one of a format, `enum` or
 * `pattern`, one of an update (which changes one member), and a member
 * that is no name (`bio`, a switch). The sign-up is sent as JSON, a form
 * and multipart: a multipart body's text parts were never made per run (a
 * literal `password: string`, the example's email, and no account for the
 * login after it).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown, type = "application/json") => ({ content: { [type]: { schema } } });
const bearer = [{ bearerAuth: [] }];
const text = { type: "string" };

/** A sign-up sending `signUp`'s media type, a login, teams of the account, roles a team may name. */
function document(signUp: string) {
  return {
    openapi: "3.0.0",
    info: { title: "Teams", version: "1" },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths: {
      "/users": {
        post: {
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: {
              email: { type: "string", format: "email" },
              password: text,
              firstName: text,
              last_name: text,
              bio: text,
              role: { type: "string", enum: ["USER", "ADMIN"] },
            },
          }, signUp),
          responses: { "201": { description: "Created" } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: { email: { type: "string", format: "email" }, password: text },
          }),
          responses: {
            "200": {
              description: "Signed in",
              ...json({ type: "object", properties: { token: text } }),
            },
          },
        },
      },
      "/teams": {
        post: {
          security: bearer,
          requestBody: json({
            type: "object",
            required: ["budget"],
            properties: {
              budget: { type: "integer" },
              title: text,
              roleName: text,
              displayName: { type: "string", readOnly: true },
              code: { type: "string", pattern: "^[A-Z]{3}$" },
              archived: { type: "boolean" },
            },
          }),
          responses: {
            "201": {
              description: "Created",
              ...json({ type: "object", properties: { id: { type: "integer" } } }),
            },
          },
        },
      },
      "/teams/{id}": {
        patch: {
          security: bearer,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          requestBody: json({ type: "object", properties: { title: text, motto: text } }),
          responses: { "200": { description: "Updated" } },
        },
      },
      "/roles": {
        get: {
          security: bearer,
          responses: {
            "200": {
              description: "Roles",
              ...json({ type: "array", items: { type: "object", properties: { name: text } } }),
            },
          },
        },
      },
    },
  };
}

/** Keeps its names NOT NULL and UNIQUE, as a table written by hand does; no role but `member`. */
function startServer() {
  const accounts = new Map<string, string>();
  const names = new Set<string>();
  const teams = new Map<number, Record<string, unknown>>();
  const sent: Record<string, unknown>[] = [];
  let next = 1;
  const refuse = (why: string, status = 400) => Response.json({ error: why }, { status });
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const form = /form/.test(req.headers.get("content-type") ?? "");
    const body = req.method === "GET"
      ? {}
      : form
      ? Object.fromEntries((await req.formData()).entries())
      : await req.json();
    sent.push({ path, method: req.method, ...body });
    if (req.method === "POST" && path === "/users") {
      for (const column of ["firstName", "last_name"]) {
        if (typeof body[column] !== "string") return refuse(`null value in column "${column}"`);
      }
      if (names.has(body.firstName)) return refuse("duplicate first name", 409);
      names.add(body.firstName);
      accounts.set(body.email, body.password);
      return new Response(null, { status: 201 });
    }
    if (req.method === "POST" && path === "/auth/login") {
      if (accounts.get(body.email) !== body.password) return refuse("Invalid credentials", 401);
      return Response.json({ token: `t-${body.email}` });
    }
    if (!req.headers.get("authorization")?.startsWith("Bearer t-")) return refuse("No token", 401);
    if (req.method === "GET" && path === "/roles") return Response.json([{ name: "member" }]);
    if (req.method === "POST" && path === "/teams") {
      if (typeof body.title !== "string") return refuse(`null value in column "title"`);
      if ("roleName" in body && body.roleName !== "member") return refuse("No such role");
      if ("displayName" in body) return refuse("displayName is read-only");
      teams.set(next, body);
      return Response.json({ id: next++ }, { status: 201 });
    }
    const team = Number(/^\/teams\/(\d+)$/.exec(path)?.[1]);
    if (req.method === "PATCH" && teams.has(team)) return Response.json({ id: team });
    return refuse("Not found", 404);
  });
  return { ...stand, sent };
}

for (
  const signUp of ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]
) {
  Deno.test(`convert openapi: a create sends the optional names its schema lists (a ${signUp} sign-up)`, async () => {
    const server = startServer();
    const { runs, flows } = await convertAndRunSuite(document(signUp), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    const signups = server.sent.filter((s) => s.path === "/users");
    assert.ok(signups.length >= 2, JSON.stringify(server.sent));
    for (const signup of signups) {
      // Made per run: a second run signs up anew where names are kept UNIQUE.
      assert.match(String(signup.firstName), /-[0-9a-f]{8}$/, JSON.stringify(signup));
      // No name: a description, a switch, a kind the server picks by default.
      for (const left of ["bio", "role"]) assert.ok(!(left in signup), JSON.stringify(signup));
    }
    const creates = server.sent.filter((s) => s.path === "/teams" && s.method === "POST");
    assert.ok(creates.length >= 2, JSON.stringify(server.sent));
    for (const create of creates) {
      assert.match(String(create.title), /^title-/, JSON.stringify(create));
      for (const left of ["roleName", "displayName", "code", "archived"]) {
        assert.ok(!(left in create), JSON.stringify(create));
      }
    }
    // An update changes one member, not every name.
    const all = [...flows.values()].join("\n");
    assert.doesNotMatch(all, /motto/, all);
    // Whatever the sign-up's encoding, its credentials are the run's, never a literal.
    assert.doesNotMatch(all, /password: string|email: user@example\.com/, all);
  });
}
