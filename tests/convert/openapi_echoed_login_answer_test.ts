/**
 * `convert openapi` on a Django REST framework document whose simplejwt login
 * is a subclass of `TokenObtainPairSerializer` (simplejwt's own recipe for
 * custom claims): drf-spectacular describes such a login's answer by the
 * serializer's one readable field, the account's name (`{email}` or
 * `{username}`), and never shows the `access` and `refresh` the server
 * answers. Read as an answer without a token, the login was no login: the
 * summary asked for an `API_TOKEN`, and the run sent what it was given to
 * every operation, where simplejwt refuses a token it did not issue even on
 * an open one (401). An answer describing only members the request sends
 * describes nothing the server makes, as an undescribed one: its token is
 * read by name, and a later body's member of the same name is not read from
 * it (the account's own update was sent the `email` the answer never held,
 * and the sign-in failed on that capture). Each spelling of the account's name and each way the answer
 * is written (its own schema, or the request's shared one) is covered; an
 * answer describing a member of its own is still read as describing no
 * token. The stand-in on 127.0.0.1 answers as simplejwt does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** The login's request, as drf-spectacular writes a serializer: the password write-only. */
function credentials(name: string): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      [name]: { type: "string", writeOnly: true },
      password: { type: "string", writeOnly: true },
    },
    required: [name, "password"],
  };
}

/** The answer drf-spectacular describes: the account's name alone, readable. */
function echoed(name: string): Record<string, unknown> {
  return { type: "object", properties: { [name]: { type: "string" } }, required: [name] };
}

/** Where the login is: the project's own word, or simplejwt's documented `api/token/`. */
const LOGINS = { "/api/login/": "login_create", "/api/token/": "token_create" };
type At = keyof typeof LOGINS;

function document(name: string, answer: Record<string, unknown>, shared: boolean, at: At) {
  const json = (schema: unknown) => ({
    content: {
      "application/json": { schema },
      "application/x-www-form-urlencoded": { schema },
      "multipart/form-data": { schema },
    },
  });
  const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
  const optional = [{ jwtAuth: [] }, {}];
  return {
    openapi: "3.0.3",
    info: { title: "shop", version: "1.0.0" },
    paths: {
      [at]: {
        post: {
          operationId: LOGINS[at],
          description: "Takes a set of user credentials and returns an access and refresh JSON " +
            "web token pair to prove the authentication of those credentials.",
          tags: ["login"],
          requestBody: { required: true, ...json(ref("MyTokenObtainPairRequest")) },
          responses: {
            200: {
              description: "",
              ...json(ref(shared ? "MyTokenObtainPairRequest" : "MyTokenObtainPair")),
            },
          },
        },
      },
      "/api/user/create/": {
        post: {
          operationId: "user_create_create",
          tags: ["user"],
          security: optional,
          requestBody: { required: true, ...json(ref("UserRequest")) },
          responses: { 201: { description: "", ...json(ref("User")) } },
        },
      },
      // The account's own update: its body's account name was read from the login's answer,
      // whose `{email}` the server never sends, and the sign-in failed on that capture.
      "/api/user/update/{id}/": {
        put: {
          operationId: "user_update_update",
          tags: ["user"],
          security: optional,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          requestBody: { required: true, ...json(ref("UserRequest")) },
          responses: { 200: { description: "", ...json(ref("User")) } },
        },
      },
      "/api/products/": {
        get: {
          operationId: "products_list",
          tags: ["products"],
          security: [{ jwtAuth: [] }],
          responses: { 200: { description: "" } },
        },
      },
      "/api/permissions/": {
        get: {
          operationId: "permissions_retrieve",
          tags: ["permissions"],
          security: optional,
          responses: { 200: { description: "" } },
        },
      },
    },
    components: {
      schemas: {
        MyTokenObtainPair: answer,
        MyTokenObtainPairRequest: credentials(name),
        User: {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, [name]: { type: "string" } },
          required: ["id", name],
        },
        UserRequest: {
          type: "object",
          properties: {
            [name]: { type: "string" },
            password: { type: "string", writeOnly: true, minLength: 8 },
          },
          required: [name, "password"],
        },
      },
      securitySchemes: { jwtAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** The stand-in: simplejwt's answers, and a 401 for any token it did not issue. */
function standIn(name: string, seen: string[], at: At) {
  const accounts = new Map<string, string>();
  const issued = new Set<string>();
  const detail = (text: string, status: number) => Response.json({ detail: text }, { status });
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization");
    const token = auth?.replace(/^Bearer /, "");
    seen.push(`${req.method} ${path}`);
    if (auth !== null && !issued.has(token ?? "")) {
      return detail("Given token not valid for any token type", 401);
    }
    const body = req.method === "GET" ? {} : await req.json();
    if (path === "/api/user/create/") {
      if (accounts.has(body[name])) return detail("already exists", 400);
      accounts.set(body[name], body.password);
      return Response.json({ id: accounts.size, [name]: body[name] }, { status: 201 });
    }
    if (path === at) {
      if (accounts.get(body[name]) !== body.password) {
        return detail("No active account found with the given credentials", 401);
      }
      const access = `eyJ${issued.size}`;
      issued.add(access);
      return Response.json({ refresh: `r${access}`, access });
    }
    if (path.startsWith("/api/user/update/")) {
      return Response.json({ id: Number(path.split("/")[4]), [name]: body[name] });
    }
    if (path === "/api/products/" && auth === null) {
      return detail("Authentication credentials were not provided.", 401);
    }
    return Response.json({ data: [] });
  });
}

/** Each account name, each way the answer is written, each place of the login. */
const CASES: [string, boolean, At][] = [
  ["email", false, "/api/login/"],
  ["email", true, "/api/login/"],
  ["username", false, "/api/login/"],
  ["username", true, "/api/login/"],
  ["username", false, "/api/token/"],
  ["email", true, "/api/token/"],
];

for (const [name, shared, at] of CASES) {
  const how = shared ? `the request's own schema ({${name}, password})` : `a schema of {${name}}`;
  Deno.test(`convert openapi: a simplejwt login at ${at} answered as ${how} signs the suite in`, async () => {
    const seen: string[] = [];
    const document_ = document(name, echoed(name), shared, at);
    const { summary, runs } = await convertAndRunSuite(document_, standIn(name, seen, at), {
      runs: 2,
    });
    assert.doesNotMatch(summary, /API_TOKEN/, summary);
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
    assert.ok(seen.includes("GET /api/products/"), seen.join("\n"));
    assert.ok(seen.some((s) => s.startsWith("PUT /api/user/update/")), seen.join("\n"));
  });
}

Deno.test("convert openapi: a login answer describing a member of its own is read as having no token", async () => {
  const answer = {
    type: "object",
    properties: { email: { type: "string" }, last_login: { type: "string" } },
  };
  const { summary } = await convertAndRunSuite(
    document("email", answer, false, "/api/login/"),
    standIn("email", [], "/api/login/"),
    { runs: 0 },
  );
  assert.match(summary, /API_TOKEN/, summary);
});
