/**
 * `convert openapi`: an account id no answer shows is read from the login's
 * token when, at run time, it is a JWT naming its account (`sub`). A Flask
 * e-learning API (smrussel/e-learning_api, docs/real-servers.md) documents
 * its scheme as an apiKey `Authorization` header and describes no answer:
 * its login answers `{user: {access, refresh, name, email}}`, its
 * `GET /auth/user` `{name, email}`, and `GET /students/{user_id}/courses`
 * needs the signed-in account's id, which only the access token's `sub`
 * holds (Flask-JWT-Extended's identity). The flow searched `GET /auth/user`'s
 * answer for the id, found none, and skipped the read. Now the search falls
 * back on the token's `sub`; an answer holding the id still wins, and an
 * opaque token leaves the read skipped, saying why, as before. Decided by
 * the token the server issued, never by what the document calls it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { flasggerDocument } from "../support/openapi_doc_parts.ts";

const bearer = [{ Bearer: [] }];
const auth = { in: "header", name: "Authorization", required: true, type: "string" };
const said = (description: string) => ({ 200: { description } });

/** The API's Swagger 2.0 document as flasgger serves it: no answer described; tagged or not. */
function document(tagged: boolean) {
  const tag = (name: string) => tagged ? { tags: [name] } : {};
  const body = (properties: Record<string, unknown>) => [{
    in: "body",
    name: "body",
    required: true,
    schema: { type: "object", required: Object.keys(properties), properties },
  }];
  const text = { type: "string" };
  return flasggerDocument("E-learning API", {
    "/auth/register": {
      post: {
        ...tag("Authentication"),
        parameters: body({ name: text, email: { type: "email" }, password: text }),
        responses: { 201: { description: "User created" } },
      },
    },
    "/auth/login": {
      post: {
        ...tag("Authentication"),
        parameters: body({ email: { type: "email" }, password: text }),
        responses: said("When a user successfully logs in"),
      },
    },
    "/auth/user": {
      get: {
        ...tag("Authentication"),
        security: bearer,
        parameters: [auth],
        responses: said("User information"),
      },
    },
    "/courses/": {
      get: { ...tag("Courses"), security: bearer, parameters: [auth], responses: said("") },
    },
    "/students/{user_id}/courses": {
      get: {
        ...tag("Students"),
        security: bearer,
        parameters: [auth, { in: "path", name: "user_id", required: true, type: "string" }],
        responses: said("The enrolled courses of the student"),
      },
    },
  });
}

const b64url = (o: unknown) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const JWT = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: 7, type: "access" })}.c2ln`;

/** The API: its token a JWT naming account 7, or an opaque one; its account read with the id or not. */
function standIn(seen: string[], token: string, readGivesId: boolean) {
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/^\/api\/v1/, "");
    seen.push(`${req.method} ${path}`);
    await req.body?.cancel();
    if (path === "/auth/register") {
      return Response.json({ message: "User created" }, { status: 201 });
    }
    if (path === "/auth/login") {
      return Response.json({
        user: { refresh: `${token}r`, access: token, name: "n", email: "e" },
      });
    }
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return Response.json({ msg: "Missing Authorization Header" }, { status: 401 });
    }
    if (path === "/auth/user") return Response.json({ ...readGivesId ? { id: 7 } : {}, name: "n" });
    if (path === "/courses/") return Response.json({ courses: [] });
    if (path === "/students/7/courses") return Response.json({ courses: [], user_id: 7 });
    return Response.json({ error: "Not found" }, { status: 404 });
  });
}

for (const tagged of [true, false]) {
  const how = tagged ? "signed in once by the setup" : "signed in by the flow";
  Deno.test(`convert openapi: the account's id no answer gives is the JWT's sub (${how})`, async () => {
    const seen: string[] = [];
    const { runs: [run], summary } = await convertAndRunSuite(
      document(tagged),
      standIn(seen, JWT, false),
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(seen.includes("GET /students/7/courses"), seen.join("\n"));
    assert.match(
      summary,
      /\{user_id\} of GET \/students\/\{user_id\}\/courses ← GET \/auth\/user .*else the login token's claim sub, else user_id, userId or id when it is a JWT/,
    );
  });
}

Deno.test("convert openapi: a token naming its account by the id's own name, not sub, serves as well", async () => {
  const seen: string[] = [];
  const token = `${b64url({ alg: "HS256" })}.${b64url({ user_id: 7, iat: 1 })}.c2ln`;
  const { runs: [run] } = await convertAndRunSuite(document(true), standIn(seen, token, false));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(seen.includes("GET /students/7/courses"), seen.join("\n"));
});

Deno.test("convert openapi: an answer holding the account's id wins over the token's sub", async () => {
  const seen: string[] = [];
  const other = `${b64url({ alg: "HS256" })}.${b64url({ sub: 9 })}.c2ln`;
  const { runs: [run] } = await convertAndRunSuite(document(true), standIn(seen, other, true));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(seen.includes("GET /students/7/courses"), seen.join("\n"));
});

Deno.test("convert openapi: an opaque token leaves the account's read skipped, saying why", async () => {
  const seen: string[] = [];
  const { runs: [run] } = await convertAndRunSuite(
    document(true),
    standIn(seen, "opaque-token-0123456789", false),
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(!seen.some((s) => s.startsWith("GET /students/")), seen.join("\n"));
  assert.match(run.stdout + run.stderr, /skipped/i);
});
