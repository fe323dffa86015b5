/**
 * The shape of a document `swagger-jsdoc` assembles from a course project's
 * route comments (written here, in the shape of an Express book API
 * measured by hand): a login answering `{token}`, two creates taking the
 * login's credentials (`POST /api/auth/register`, `POST /api/users`),
 * books whose writes require `bearerAuth` while no `securitySchemes`
 * declares it, a create answering nothing the document describes, and a
 * `Book` schema describing `book_id` as its unique identifier. Shared by
 * the tests of the classes that document showed, with a stand-in serving it
 * as such a project's Express app does.
 */
import { serveStandIn, type StandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const credentials = json({
  type: "object",
  required: ["username", "password"],
  properties: { username: { type: "string" }, password: { type: "string" } },
});
const book = { $ref: "#/components/schemas/Book" };
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];

/** The document; `scheme` is the name its book writes require (declared nowhere). */
export function jsdocDocument(scheme = "bearerAuth") {
  const secured = [{ [scheme]: [] }];
  return {
    openapi: "3.0.0",
    info: { title: "Books", version: "1.0.0" },
    paths: {
      "/api/auth/register": {
        post: {
          tags: ["Auth"],
          summary: "Register a new user",
          requestBody: credentials,
          responses: { "200": { description: "Registered", ...json({ type: "object" }) } },
        },
      },
      "/api/auth/login": {
        post: {
          tags: ["Auth"],
          summary: "Login user",
          description: "Authenticate a user and return a JWT token",
          requestBody: credentials,
          responses: {
            "200": { description: "", ...json({ properties: { token: { type: "string" } } }) },
          },
        },
      },
      "/api/users": {
        post: {
          tags: ["Users"],
          summary: "Create a new user",
          requestBody: credentials,
          responses: {
            "201": { description: "", ...json({ properties: { user_id: { type: "integer" } } }) },
          },
        },
      },
      "/api/books": {
        post: {
          tags: ["Books"],
          security: secured,
          requestBody: json(book),
          responses: { "201": { description: "Book created" } },
        },
      },
      "/api/books/{id}": {
        get: {
          tags: ["Books"],
          parameters: id,
          responses: { "200": { description: "", ...json(book) } },
        },
        delete: {
          tags: ["Books"],
          security: secured,
          parameters: id,
          responses: { "200": { description: "" } },
        },
      },
    },
    components: {
      schemas: {
        Book: {
          type: "object",
          required: ["title"],
          properties: {
            book_id: { type: "integer", description: "The unique identifier of the book" },
            title: { type: "string" },
            writer_id: { type: "integer", description: "The writer's identifier" },
          },
        },
      },
    },
  };
}

/** What the stand-in saw: each request's `METHOD path` and its Authorization header. */
export type Seen = { method: string; path: string; auth: string | null }[];

/**
 * The project's app: `serves` says whether its register route is mounted
 * (404 when not, as Express answers a route nobody mounted). Books want
 * `Bearer <token>` on writes and answer `{message, data: book}`.
 */
export function jsdocStandIn(seen: Seen, serves = { register: false }): StandIn {
  const accounts = new Map<string, string>();
  const books = new Map<number, Record<string, unknown>>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization");
    seen.push({ method: req.method, path: pathname, auth });
    const body = req.method === "POST" ? await req.json() : {};
    const signUp = pathname === "/api/users" ||
      (serves.register && pathname === "/api/auth/register");
    if (req.method === "POST" && signUp) {
      if (accounts.has(body.username)) return Response.json({ message: "taken" }, { status: 400 });
      accounts.set(body.username, body.password);
      return Response.json({ user_id: accounts.size }, {
        status: pathname === "/api/users" ? 201 : 200,
      });
    }
    if (req.method === "POST" && pathname === "/api/auth/login") {
      if (accounts.get(body.username) !== body.password) return Response.json({}, { status: 400 });
      return Response.json({ token: "t.o.k" });
    }
    const item = /^\/api\/books\/(\d+)$/.exec(pathname)?.[1];
    if (pathname !== "/api/books" && item === undefined) {
      return Response.json("no route", { status: 404 });
    }
    if (req.method !== "GET" && auth !== "Bearer t.o.k") return Response.json({}, { status: 401 });
    if (req.method === "POST" && pathname === "/api/books") {
      const made = { book_id: books.size + 1, title: body.title, writer_id: 1 };
      books.set(made.book_id, made);
      return Response.json({ message: "created", data: made }, { status: 201 });
    }
    const found = item === undefined ? undefined : books.get(Number(item));
    if (!found) return Response.json("not found", { status: 404 });
    if (req.method === "DELETE") books.delete(Number(item));
    return Response.json(found);
  });
}
