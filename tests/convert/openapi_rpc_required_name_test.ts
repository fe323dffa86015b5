/**
 * `convert openapi`: in a document whose paths take no parameter and name
 * a verb after a noun (`POST /books/new`, `DELETE /books/delete`, as small
 * FastAPI APIs route them), a create whose body requires exactly one free
 * text member names its item by it, as a description or a summary's
 * "cannot be empty" already said (`rpc_names.ts`): the delete of that noun,
 * whose body holds the same member, is sent the name the create sent, one
 * var per run. A FastAPI student and course API removed a student by a
 * made-up name (404 "Student not found") after making another. A create
 * requiring two texts (an enrollment's student and course names) says
 * nothing of which names it, and its members are left as they were.
 * The stand-in keeps what is made and refuses an unknown name, on
 * 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: string) => ({
  required: true,
  content: { "application/json": { schema: ref(name) } },
});
const ok = { "200": { description: "Successful Response", content: { "application/json": {} } } };

const document = {
  openapi: "3.0.2",
  info: { title: "Library", version: "1" },
  paths: {
    "/books/new": { post: { tags: ["Books"], requestBody: body("Book"), responses: ok } },
    "/books/info": { get: { tags: ["Books"], responses: ok } },
    "/books/delete": { delete: { tags: ["Books"], requestBody: body("Book"), responses: ok } },
    "/books/loans/new": { post: { tags: ["Books"], requestBody: body("Loan"), responses: ok } },
  },
  components: {
    schemas: {
      Book: {
        type: "object",
        properties: {
          title: { type: "string", minLength: 2, maxLength: 30 },
          pages: { type: "integer" },
        },
        required: ["title"],
      },
      Loan: {
        type: "object",
        properties: { b_title: { type: "string" }, reader: { type: "string" } },
        required: ["b_title", "reader"],
      },
    },
  },
};

/** A stand-in keeping books by title; a delete of a title it does not hold is refused 404. */
function store() {
  const books = new Set<string>();
  const bodies = new Map<string, Record<string, unknown>>();
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = req.method === "GET" ? {} : await req.json();
    bodies.set(path, sent);
    if (path === "/books/new") books.add(sent.title);
    if (path === "/books/delete") {
      if (!books.delete(sent.title)) return Response.json({ detail: "no book" }, { status: 404 });
    }
    return Response.json({ info: "done" });
  });
  return { server, bodies };
}

Deno.test("convert openapi: a delete under a noun's verb is sent the name the noun's create sent, its one required text", async () => {
  const { server, bodies } = store();
  try {
    const { runs, summary, flows } = await convertAndRunSuite(document, server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + summary);
    const sent = (path: string) => bodies.get(path) ?? {};
    assert.equal(sent("/books/delete").title, sent("/books/new").title);
    assert.match(flows.get("books.yaml") ?? "", /title: \$\{vars\.book\}/);
    // Two required texts name nothing: the loan's are as before, neither the book's var.
    assert.notEqual(sent("/books/loans/new").b_title, sent("/books/new").title);
    assert.notEqual(sent("/books/loans/new").reader, sent("/books/new").title);
  } finally {
    await server.close();
  }
});
