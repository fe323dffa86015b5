/**
 * `convert openapi` on a document that shows each create answering its item
 * bare (`Column {id, title}`), in the shape `@nestjs/swagger` writes for
 * `@ApiResponse({type: ColumnEntity})`, served by an API whose handlers
 * answer the item wrapped in a one-member object named for it
 * (`{column: {id, title}}`, `{card: {…}}`): the handler's own interface,
 * which the document never shows. Before, the create's capture read
 * `$.json.id`, found nothing, and failed the create; each nested operation
 * (`/columns/{columnId}/cards/{cardId}`) had no id, nor a body naming a
 * column (`POST /tasks {columnId}`). Now the id is read from
 * the answer's top level when it is there, else from the one member
 * wrapping it, decided at run time by the answer itself (the run's schema
 * checks still report each answer that differs from the document). A server
 * answering exactly as the document says passes the same steps as before.
 *
 * The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (status: string, schema: unknown) => ({
  [status]: { description: "", ...json(schema) },
});
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "number" } });
const item = (name: string, ...params: string[]) => ({
  parameters: params.map(param),
  get: { responses: answer("200", ref(name)) },
  delete: { responses: { "200": { description: "" } } },
});
const create = (name: string, ...params: string[]) => ({
  parameters: params.map(param),
  get: { responses: answer("200", { type: "array", items: ref(name) }) },
  post: {
    requestBody: { required: true, ...json(ref("CreateDto")) },
    responses: answer("201", ref(name)),
  },
});

/** Columns → cards → comments, each create answering the bare entity in the document. */
const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "Boards", version: "1.0" },
  paths: {
    "/columns": create("Column"),
    "/columns/{columnId}": item("Column", "columnId"),
    "/columns/{columnId}/cards": create("Card", "columnId"),
    "/columns/{columnId}/cards/{cardId}": item("Card", "columnId", "cardId"),
    "/cards/{cardId}/comments": create("Comment", "cardId"),
    "/cards/{cardId}/comments/{commentId}": item("Comment", "cardId", "commentId"),
    // A body naming a column: `columnId` of the body is the column POST /columns made.
    "/tasks": {
      post: {
        requestBody: { required: true, ...json(ref("CreateTaskDto")) },
        responses: answer("201", ref("Task")),
      },
    },
  },
  components: {
    schemas: {
      CreateDto: {
        type: "object",
        properties: { title: { type: "string" } },
        required: ["title"],
      },
      CreateTaskDto: {
        type: "object",
        properties: { title: { type: "string" }, columnId: { type: "number" } },
        required: ["title", "columnId"],
      },
      ...Object.fromEntries(["Column", "Card", "Comment", "Task"].map((name) => [name, {
        type: "object",
        properties: { id: { type: "number" }, title: { type: "string" } },
        required: ["id", "title"],
      }])),
    },
  },
};

/** An API keeping its items by kind; `wrap` answers each item as `{<kind>: item}`. */
function standIn(wrap: boolean, passed: Set<string>) {
  const items = new Map<string, { id: number; title: string; parent?: number }>();
  let next = 1;
  const shown = (kind: string, value: unknown) => wrap ? { [kind]: value } : value;
  const route = async (req: Request): Promise<[number, unknown]> => {
    const parts = new URL(req.url).pathname.split("/").filter(Boolean);
    const kinds = { columns: "column", cards: "card", comments: "comment", tasks: "task" };
    const kind = kinds[parts.at(-2) as keyof typeof kinds];
    const last = kinds[parts.at(-1) as keyof typeof kinds];
    if (last && req.method === "POST") {
      const { title, columnId } = await req.json();
      if (last === "task" && !items.has(`column/${columnId}`)) return [400, {}];
      const made = { id: next++, title, parent: Number(parts.at(-2)) || undefined };
      items.set(`${last}/${made.id}`, made);
      return [201, shown(last, made)];
    }
    if (last) return [200, [...items.values()]];
    // A nested item exists only under the item the create's path named.
    const found = kind && items.get(`${kind}/${parts.at(-1)}`);
    if (!found || (parts.length > 2 && found.parent !== Number(parts.at(-3)))) return [404, {}];
    if (req.method === "DELETE") items.delete(`${kind}/${parts.at(-1)}`);
    return [200, shown(kind, found)];
  };
  return serveStandIn(async (req) => {
    const [status, body] = await route(req);
    const template = new URL(req.url).pathname.replace(/\/\d+(?=\/|$)/g, "/{}");
    if (status < 300) passed.add(`${req.method} ${template}`);
    return Response.json(body, { status });
  });
}

Deno.test("convert openapi: a create answering its item wrapped in a one-member object gives the nested paths its id", async () => {
  const passed = new Set<string>();
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, standIn(true, passed));
  const out = summary + runs[0].stdout;
  const nested = ["GET /columns/{}/cards/{}", "DELETE /cards/{}/comments/{}", "GET /columns/{}"];
  for (const op of [...nested, "POST /tasks"]) {
    assert.ok(passed.has(op), `${op} not accepted:\n${out}`);
  }
  assert.equal(passed.size, 13, out);
  // The answers still differ from the document, and the run says so: only its schema checks fail.
  assert.equal(runs[0].code, 1, out);
  const failed = runs[0].stdout.split("\n").filter((l) => /^\s+✘ \$/.test(l));
  assert.ok(
    failed.length > 0 && failed.every((l) => /violations? of \.\.\/api\.json/.test(l)),
    out,
  );
});

Deno.test("convert openapi: a server answering its items bare, as the document says, passes the same", async () => {
  const passed = new Set<string>();
  const { runs, summary } = await convertAndRunSuite(DOCUMENT, standIn(false, passed));
  assert.equal(passed.size, 13, summary + runs[0].stdout);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
});
