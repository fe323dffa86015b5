/**
 * `convert openapi` on a REST API generated from a database's tables, as
 * Platformatic DB makes one (tests/real/platformatic_openapi_test.ts): a
 * collection route per table (`/authors/`, its listing filtered by
 * `where.FIELD.OP` query parameters, a `PUT` that updates the rows a filter
 * names), an item route (`/authors/{id}`), a route per foreign key
 * (`/authors/{id}/books`), and `links` on every answer. Four classes of
 * refusal were found there, each fixed by a rule read from the document:
 *
 * - a link on a list answer (`GET /authors/{id}/books`, `[Book]`) to
 *   `getAuthorById` by `$response.body#/authorId` points at nothing (a list
 *   has no `authorId`): the capture matched nothing and every read, update
 *   and delete of the author was skipped. Such a link is not read
 *   (lib/convert/openapi/document_links.ts);
 * - a link from another table's create (`POST /books/` → `getAuthorById` by
 *   `#/authorId`) named the author the flow's book refers to: its delete was
 *   refused (500, a foreign key). The item is read from its own create
 *   (`ownCreate`);
 * - a text column the document says nothing of but its type (`isbn`) was
 *   sent as `string` by every flow and run: the second create was refused
 *   (500, a UNIQUE column). Such text is made per run (run_values.ts);
 * - the `PUT` of the collection, sent with no filter, was refused (400
 *   "Missing where clause": it would update every row). It sends the
 *   equality filter on the item's id naming the flow's own item
 *   (own_filter.ts).
 *
 * The stand-in answers as Platformatic DB does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn, type SuiteRuns } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };
const where = (fields: string[]) =>
  fields.flatMap((f) =>
    ["eq", "neq", "in"].map((op) => ({ name: `where.${f}.${op}`, in: "query", schema: {} }))
  );
const link = (operationId: string, parameters: Record<string, string>) => ({
  [operationId]: { operationId, parameters },
});
const answer = (schema: unknown, links: Record<string, unknown> = {}) => ({
  "200": { description: "Default Response", ...json(schema), links },
});

const AUTHOR = { id: { type: "integer" }, name: { type: "string" }, email: { type: "string" } };
const BOOK = {
  id: { type: "integer" },
  title: { type: "string" },
  isbn: { type: "string" },
  authorId: { type: "integer" },
};
const input = (props: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties: props,
  required,
});
const toAuthor = link("getAuthorById", { id: "$response.body#/authorId" });

/** A table's three routes: the collection, the item, its create's input. */
function table(name: string, one: string, schema: string, required: string[], links = {}) {
  const body = { required: true, ...json(input(name === "authors" ? AUTHOR : BOOK, required)) };
  const own = (op: string) => `${op}${one[0].toUpperCase()}${one.slice(1)}`;
  return {
    [`/${name}/`]: {
      get: {
        operationId: `get${schema}s`,
        tags: [name],
        responses: answer({ type: "array", items: ref(schema) }, links),
      },
      post: {
        operationId: own("create"),
        tags: [name],
        requestBody: body,
        responses: answer(ref(schema), links),
      },
      put: {
        operationId: `update${schema}s`,
        tags: [name],
        parameters: where(Object.keys(name === "authors" ? AUTHOR : BOOK)),
        requestBody: body,
        responses: answer({ type: "array", items: ref(schema) }, links),
      },
    },
    [`/${name}/{id}`]: {
      get: {
        operationId: `get${schema}ById`,
        tags: [name],
        parameters: [id],
        responses: answer(ref(schema), links),
      },
      put: {
        operationId: own("update"),
        tags: [name],
        parameters: [id],
        requestBody: body,
        responses: answer(ref(schema), links),
      },
      delete: {
        operationId: own("delete"),
        tags: [name],
        parameters: [id],
        responses: answer(ref(schema), links),
      },
    },
  };
}

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Platformatic DB", version: "1.0.0" },
  servers: [{ url: "/" }],
  components: {
    schemas: {
      Author: { type: "object", properties: AUTHOR },
      Book: { type: "object", properties: BOOK },
    },
  },
  paths: {
    ...table("authors", "author", "Author", ["name", "email"]),
    "/authors/{id}/books": {
      get: {
        operationId: "getBooksForAuthor",
        tags: ["authors"],
        parameters: [id],
        responses: answer({ type: "array", items: ref("Book") }, toAuthor),
      },
    },
    ...table("books", "book", "Book", ["title", "isbn", "authorId"], toAuthor),
  },
};

type Row = Record<string, unknown> & { id: number };

/** The stand-in: two tables, a UNIQUE `isbn`, a foreign key, a bulk update that needs a filter. */
function standIn(refused: string[], updated: unknown[]) {
  const tables: Record<string, Map<number, Row>> = { authors: new Map(), books: new Map() };
  let next = 1;
  const fail = (status: number, message: string, req: Request) => {
    refused.push(`${req.method} ${new URL(req.url).pathname}: ${status} ${message}`);
    return Response.json({ message }, { status });
  };
  return serveStandIn(async (req) => {
    const url = new URL(req.url);
    const [, name, key, nested] = url.pathname.split("/");
    const rows = tables[name];
    if (!rows) return fail(404, "no route", req);
    const books = [...tables.books.values()];
    if (key === "" && req.method === "GET") return Response.json([...rows.values()]);
    if (key === "" && req.method === "POST") {
      const body = await req.json();
      if (name === "books" && books.some((b) => b.isbn === body.isbn)) {
        return fail(500, "UNIQUE constraint failed: books.isbn", req);
      }
      if (name === "books" && !tables.authors.has(body.authorId)) {
        return fail(500, "FOREIGN KEY constraint failed", req);
      }
      const row = { ...body, id: next++ };
      rows.set(row.id, row);
      return Response.json(row);
    }
    if (key === "" && req.method === "PUT") {
      const eq = url.searchParams.get("where.id.eq");
      if (eq === null) return fail(400, "Missing where clause", req);
      const row = rows.get(Number(eq));
      if (row) Object.assign(row, await req.json(), { id: row.id });
      updated.push(Number(eq));
      return Response.json(row ? [row] : []);
    }
    const row = rows.get(Number(key));
    if (!row) return fail(404, "not found", req);
    if (nested === "books") return Response.json(books.filter((b) => b.authorId === row.id));
    if (req.method === "GET") return Response.json(row);
    if (req.method === "PUT") {
      return Response.json(Object.assign(row, await req.json(), { id: row.id }));
    }
    if (name === "authors" && books.some((b) => b.authorId === row.id)) {
      return fail(500, "FOREIGN KEY constraint failed", req);
    }
    rows.delete(row.id);
    return Response.json(row);
  });
}

/** The suite converted once and run twice against one stand-in: what it refused and updated. */
const suite: Promise<SuiteRuns & { refused: string[]; updated: unknown[] }> = (async () => {
  const refused: string[] = [];
  const updated: unknown[] = [];
  const runs = await convertAndRunSuite(DOCUMENT, standIn(refused, updated), { runs: 2 });
  return { ...runs, refused, updated };
})();

Deno.test("convert openapi: a table API's suite passes twice on one server, nothing refused", async () => {
  const { runs, refused } = await suite;
  assert.deepEqual(refused, []);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
});

Deno.test("convert openapi: a link on a list answer is not read; the item is read from its own create", async () => {
  const { flows } = await suite;
  const authors = flows.get("authors.yaml") ?? "";
  assert.match(
    authors,
    /url: \$\{ENV\.BASE_URL\}\/authors\/\$\{steps\.create_author\.capture\.id\}\n/,
  );
  assert.doesNotMatch(authors, /authorId/);
});

Deno.test("convert openapi: text only typed `string` in a create's body is made per run", async () => {
  const { flows } = await suite;
  assert.match(flows.get("books.yaml") ?? "", /isbn: isbn-\$\{RANDOM\.HEX_8\}/);
});

Deno.test("convert openapi: a write of many sends the equality filter naming the flow's own item", async () => {
  const { flows, updated } = await suite;
  assert.match(
    flows.get("authors.yaml") ?? "",
    /"?where\.id\.eq"?: \$\{steps\.create_author\.capture\.id\}\n/,
  );
  // Two runs, each of the two tables' flows updating its own row (the books flow makes an author too).
  assert.equal(updated.length, 4);
  assert.ok(updated.every((n) => typeof n === "number" && n > 0), String(updated));
});
