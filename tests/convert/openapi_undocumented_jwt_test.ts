/**
 * `convert openapi` on a document that declares no security at all (no
 * `securitySchemes`, no `security`), whose login's answer shows no token
 * (`{user: {id, email}}`), served by an API whose login answers a JWT inside
 * it all the same (`{user: {id, email, token}}`) and refuses every write 401
 * without `Authorization: Bearer <jwt>`: `@nestjs/swagger` without
 * `addBearerAuth` (measured by hand on a NestJS Trello API, see
 * docs/real-servers.md). Before, the login was read as a session login, its
 * token left unread, and every write refused. Now the login's step captures,
 * `optional`, a JWT anywhere in its answer (three base64url parts, the
 * first a JSON object naming `alg`), and each later step sends it as RFC
 * 6750's bearer header under `omit_empty_headers`, so a login that answered
 * none (a session cookie) sends no `Authorization` at all: the control
 * server, answering a cookie and no JWT, passes as before.
 *
 * A login may hand its JWT out in a response header instead, its body empty
 * (a hapi inventory API's `POST /login` answers `x-auth-token: <jwt>` and
 * no body; hapi-swagger shows neither): a response header whose whole value
 * is a JWT (or `Bearer ` and one) is read when the answer's body holds none.
 * The header's name is nobody's evidence; the value's form is.
 *
 * The stand-ins run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (status: string, schema: unknown) => ({
  [status]: { description: "", ...json(schema) },
});
const post = (body: string, status: string, schema: unknown) => ({
  post: { requestBody: { required: true, ...json(ref(body)) }, responses: answer(status, schema) },
});

/** A sign-up and a login answering `{user: {id, email}}`, columns with their items; no security. */
const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "Boards", version: "1.0" },
  paths: {
    "/users": post("CreateUserDto", "201", ref("UserAnswer")),
    "/users/login": post("CreateUserDto", "200", ref("UserAnswer")),
    "/columns": {
      get: { responses: answer("200", { type: "array", items: ref("Column") }) },
      ...post("CreateColumnDto", "201", ref("Column")),
    },
    "/columns/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
      get: { responses: answer("200", ref("Column")) },
      delete: { responses: { "200": { description: "" } } },
    },
  },
  components: {
    schemas: {
      CreateUserDto: {
        type: "object",
        required: ["email", "password"],
        properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
      },
      UserAnswer: {
        type: "object",
        properties: {
          user: {
            type: "object",
            properties: { id: { type: "number" }, email: { type: "string" } },
          },
        },
      },
      CreateColumnDto: {
        type: "object",
        required: ["title"],
        properties: { title: { type: "string" } },
      },
      Column: {
        type: "object",
        required: ["id", "title"],
        properties: { id: { type: "number" }, title: { type: "string" } },
      },
    },
  },
};

const b64url = (text: string) =>
  btoa(text).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");

/** A JWT as jsonwebtoken signs one (the signature made up: the stand-in only compares it). */
function jwt(id: number): string {
  const sign = b64url(crypto.randomUUID());
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"id":${id}}`)}.${sign}`;
}

/**
 * The API: `jwt` answers the login's token in its body and wants it as a bearer; else it sets a
 * session cookie and wants that. Reads are open; every other write needs the credential.
 */
function standIn(useJwt: boolean, inHeader = false) {
  const accounts = new Map<string, string>();
  const valid = new Set<string>();
  const columns = new Map<number, string>();
  const seen = { passed: new Set<string>(), authorizations: 0, refused: 0 };
  const route = async (req: Request, path: string): Promise<Response> => {
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (path === "/users" || path === "/users/login") {
      const signUp = path === "/users";
      if (signUp) accounts.set(body.email, body.password);
      else if (accounts.get(body.email) !== body.password) {
        return Response.json({}, { status: 401 });
      }
      const id = [...accounts.keys()].indexOf(body.email) + 1;
      const token = jwt(id);
      valid.add(token);
      const inBody = useJwt && !signUp && !inHeader;
      const user = { id, email: body.email, ...(inBody ? { token } : {}) };
      const given = inHeader && !signUp ? { "x-grant": token } : undefined;
      const headers = useJwt ? given : { "set-cookie": `sid=${token}; Path=/; HttpOnly` };
      return Response.json({ user }, { status: signUp ? 201 : 200, headers });
    }
    const credential = useJwt
      ? /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1]
      : /sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (req.method !== "GET" && !valid.has(credential ?? "")) {
      seen.refused++;
      return Response.json({ message: "Unauthorized" }, { status: 401 });
    }
    const id = Number(path.split("/")[2]);
    if (path === "/columns" && req.method === "POST") {
      columns.set(columns.size + 1, body.title);
      return Response.json({ id: columns.size, title: body.title }, { status: 201 });
    }
    if (path === "/columns") {
      return Response.json([...columns].map(([id, title]) => ({ id, title })));
    }
    if (!columns.has(id)) return Response.json({}, { status: 404 });
    const found = { id, title: columns.get(id) };
    if (req.method === "DELETE") columns.delete(id);
    return Response.json(req.method === "DELETE" ? {} : found);
  };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.headers.has("authorization")) seen.authorizations++;
    const res = await route(req, path);
    if (res.status < 300) seen.passed.add(`${req.method} ${path.replace(/\/\d+$/, "/{id}")}`);
    return res;
  });
  return { server, seen };
}

const ALL = [
  "POST /users",
  "POST /users/login",
  "POST /columns",
  "GET /columns",
  "GET /columns/{id}",
  "DELETE /columns/{id}",
];

Deno.test("convert openapi: a login answering a JWT its document does not show, in a document declaring no security, sends it as a bearer", async () => {
  const { server, seen } = standIn(true);
  const { runs, summary, flows } = await convertAndRunSuite(DOCUMENT, server);
  const out = summary + runs[0].stdout;
  assert.deepEqual([...seen.passed].sort(), [...ALL].sort(), out);
  assert.equal(seen.refused, 0, out);
  assert.equal(runs[0].code, 0, out);
  assert.match(summary, /bearer ← POST \/users\/login/);
  const columns = [...flows.values()].join("\n");
  assert.match(columns, /omit_empty_headers: true/);
  assert.match(columns, /Authorization: Bearer \$\{steps\.[a-z_]+\.capture\.token\}/);
});

Deno.test("convert openapi: a login answering its JWT in a response header and none in its body sends it as a bearer", async () => {
  const { server, seen } = standIn(true, true);
  const { runs, summary, flows } = await convertAndRunSuite(DOCUMENT, server);
  const out = summary + runs[0].stdout;
  assert.deepEqual([...seen.passed].sort(), [...ALL].sort(), out);
  assert.equal(seen.refused, 0, out);
  assert.equal(runs[0].code, 0, out);
  const columns = [...flows.values()].join("\n");
  assert.match(columns, /Authorization: Bearer \$\{steps\.[a-z_]+\.capture\.token\}/);
});

Deno.test("convert openapi: the same document against a session-cookie API sends no Authorization and passes", async () => {
  const { server, seen } = standIn(false);
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, server);
  const out = summary + runs[0].stdout;
  assert.deepEqual([...seen.passed].sort(), [...ALL].sort(), out);
  assert.equal(seen.refused, 0, out);
  assert.equal(seen.authorizations, 0, out);
  assert.equal(runs[0].code, 0, out);
});

Deno.test("convert openapi: a document declaring its session cookie as a scheme is read as it says: no JWT read, no Authorization", async () => {
  const { server, seen } = standIn(false);
  const scheme = { sid: { type: "apiKey", in: "cookie", name: "sid" } };
  const declared = {
    ...DOCUMENT,
    security: [{ sid: [] }],
    components: { ...DOCUMENT.components, securitySchemes: scheme },
  };
  const { runs, summary, flows } = await convertAndRunSuite(declared, server);
  const text = [...flows.values()].join("\n");
  assert.ok(!/Authorization|eyJ/.test(text), text);
  // A cookie session's writes echo an XSRF-TOKEN cookie when the server sets one
  // (openapi_xsrf_cookie_test.ts): the only header left out when empty.
  const omitted = text.match(/omit_empty_headers: true/g)?.length ?? 0;
  assert.equal(omitted, text.match(/X-XSRF-TOKEN: /g)?.length ?? 0, text);
  assert.doesNotMatch(summary, /bearer ←/);
  assert.equal(seen.authorizations, 0, summary + runs[0].stdout);
});
