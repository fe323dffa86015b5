/**
 * `convert openapi` on a small REST API whose paths take no parameter and
 * all start with one base segment, its sign-up at `POST /api/register`, as a
 * course's Express library API (2025) is written: `POST /api/books` answers
 * `{message, book: {id}}` and `POST /api/loans` requires a `bookId`. Before,
 * the verb `register` after `api` read as a gRPC gateway's verb after its
 * noun (etcd's `/v3/auth/role/add`), so the whole document was taken for an
 * RPC one: its creates were looked for under the word before a verb, none
 * was found for `bookId`, and the loan was sent a literal `1`, a book a
 * fresh server may not hold. A segment every path starts with is the API's
 * base, no noun: a verb after it names no function of a noun, and the REST
 * creates are read again (`bookId` ← `POST /api/books` `book.id`).
 *
 * The same API's return, `POST /api/returns`, requires a `loanId`; the
 * loan's create describes its answer as `{message, book}`, no member for
 * the loan, while the server answers a `loanId` beside them. Before, the
 * return was sent a literal `1`, the first loan of a fresh server, refused
 * on a second run (another account's, already returned). A create of the
 * property's noun whose described answer shows no member for it is read at
 * run time by the property's own name alone, never by a bare `id` (the
 * described `book.id` is another noun's).
 *
 * The stand-in runs on 127.0.0.1; its tools are numbered from 41, and a
 * borrowing of a tool it does not hold is 404.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { isRpcDocument } from "../../lib/convert/openapi/rpc_verbs.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});
const text = { type: "string" };
const account = json(object({ username: text, password: text }, ["username", "password"]));
const bearer = [{ bearerAuth: [] }];

const document = {
  openapi: "3.0.0",
  info: { title: "Tool lending", version: "1.0.0" },
  paths: {
    "/api/register": {
      post: { requestBody: account, responses: { "201": { description: "Account made" } } },
    },
    "/api/login": {
      post: {
        requestBody: account,
        responses: { "200": { description: "Signed in", ...json(object({ token: text })) } },
      },
    },
    "/api/tools": {
      get: { security: bearer, responses: { "200": { description: "The tools" } } },
      post: {
        security: bearer,
        requestBody: json(object({ name: text }, ["name"])),
        responses: {
          "201": {
            description: "Tool added",
            ...json(
              object({ message: text, tool: object({ id: { type: "integer" }, name: text }) }),
            ),
          },
        },
      },
    },
    "/api/borrowings": {
      post: {
        security: bearer,
        requestBody: json(object({ toolId: { type: "integer" } }, ["toolId"])),
        responses: {
          "201": {
            description: "Borrowed",
            ...json(
              object({ message: text, tool: object({ id: { type: "integer" }, name: text }) }),
            ),
          },
          "404": { description: "No such tool" },
        },
      },
    },
    "/api/handbacks": {
      post: {
        security: bearer,
        requestBody: json(object({ borrowingId: { type: "integer" } }, ["borrowingId"])),
        responses: { "200": { description: "Handed back" }, "409": { description: "Not yours" } },
      },
    },
  },
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
};

/**
 * Accounts, tools and borrowings in memory; a borrowing names a tool it holds, else 404; a
 * handback names an open borrowing, else 409. Borrowings are numbered from 71, and answered with
 * a `borrowingId` the document does not describe.
 */
function standIn(borrowed: number[]) {
  const accounts = new Map<string, string>();
  const tools = new Set<number>();
  const open = new Set<number>();
  let next = 41;
  let borrowing = 71;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json() : {};
    if (pathname === "/api/register") {
      accounts.set(body.username, body.password);
      return Response.json({ username: body.username }, { status: 201 });
    }
    if (pathname === "/api/login") {
      const ok = accounts.get(body.username) === body.password;
      return ok ? Response.json({ token: "t0k3n" }) : Response.json({}, { status: 401 });
    }
    if (req.headers.get("authorization") !== "Bearer t0k3n") {
      return new Response(null, { status: 401 });
    }
    if (pathname === "/api/tools" && req.method === "GET") return Response.json([...tools]);
    if (pathname === "/api/tools") {
      tools.add(next);
      return Response.json({ message: "added", tool: { id: next++, name: body.name } }, {
        status: 201,
      });
    }
    if (pathname === "/api/handbacks") {
      if (!open.delete(body.borrowingId)) {
        return Response.json({ error: `No open borrowing ${body.borrowingId}` }, { status: 409 });
      }
      return Response.json({ message: "handed back" });
    }
    if (!tools.has(Number(body.toolId))) {
      return Response.json({ error: `No tool ${body.toolId}` }, { status: 404 });
    }
    borrowed.push(body.toolId);
    open.add(borrowing);
    const tool = { id: body.toolId, name: "a tool" };
    return Response.json({ message: "borrowed", borrowingId: borrowing++, tool }, { status: 201 });
  });
}

Deno.test("convert openapi: a verb after the segment every path starts with makes no RPC document", () => {
  assert.equal(isRpcDocument(Object.keys(document.paths)), false);
  // etcd's gateway: the verb follows a noun (`role`, `lease`), not the base `v3`.
  assert.equal(isRpcDocument(["/v3/auth/role/add", "/v3/lease/grant", "/v3/kv/range"]), true);
  assert.equal(isRpcDocument(["/createGroup", "/listPads"]), true);
});

Deno.test("convert openapi: a body id under a base-prefixed sign-up is read from its noun's create", async () => {
  const borrowed: number[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(borrowed));
  assert.match(summary, /toolId of POST \/api\/borrowings ← POST \/api\/tools \$\.json\.tool\.id/);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.deepEqual(borrowed, [41]);
});

Deno.test("convert openapi: an id a create's described answer leaves out is read by its own name", async () => {
  const borrowed: number[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document, standIn(borrowed), {
    runs: 2,
  });
  assert.match(summary, /borrowingId of POST \/api\/handbacks ← POST \/api\/borrowings/);
  assert.doesNotMatch([...flows.values()].join(), /borrowingId: 1$/m);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.equal(runs[1].code, 0, summary + runs[1].stdout);
  assert.deepEqual(borrowed, [41, 42]);
});
