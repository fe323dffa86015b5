/**
 * `convertCurl`: a command the docs give both outcomes of. A todo API's README
 * documents each example with "On success, it returns … Status code: `200`"
 * and then "On failure, it returns an error message … Status code: `404`":
 * the success status was not read (only 400 to 599 were), so the one refusal
 * left was taken for the command's, and the create, update and delete checked
 * 400 and 404 while the server answered 201 and 200. A sentence of the
 * command's that names a success status (200 to 399) beside a word of
 * answering is a second status: the refusal is another case's, and the step
 * keeps the below-400 check, as it does for two refusals. Run against a todo
 * server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

/** One example in the README's shape: the command, its success, then its failure. */
function example(title: string, command: string, ok: number, refused: number): string {
  return [
    `### ${title}`,
    "",
    "```bash",
    command,
    "```",
    "",
    "- On success, it returns the todo item.",
    "",
    "  - Example response:",
    "",
    "    ```json",
    '    { "todo": { "id": 2, "title": "b" } }',
    "    ```",
    "",
    `  - Status code: \`${ok}\``,
    "",
    "- On failure, it returns an error message.",
    "",
    "  - Example response:",
    "",
    "    ```json",
    '    { "message": "Todo item not found" }',
    "    ```",
    "",
    `  - Status code: \`${refused}\``,
    "",
  ].join("\n");
}

const DOCS = [
  "# Todos",
  "",
  example(
    "`POST /todos`",
    `curl -X POST http://HOST/todos -H 'Content-Type: application/json' -d '{"title": "b"}'`,
    201,
    409,
  ),
  example("`GET /todos/:id`", "curl http://HOST/todos/1", 200, 404),
  example(
    "`PUT /todos/:id`",
    `curl -X PUT http://HOST/todos/1 -H 'Content-Type: application/json' -d '{"title": "c"}'`,
    200,
    404,
  ),
  example("DELETE /todos/:id", "curl -X DELETE http://HOST/todos/1", 200, 404),
].join("\n");

Deno.test("a command documented with a success and a failure keeps the below-400 check", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "127.0.0.1:8080"));
  assert.deepEqual(statuses(yaml), Array(4).fill("{ lt: 400 }"), yaml);
  assert.ok(!summary.notes.some((n) => /the docs say it/.test(n)), summary.notes.join("\n"));
});

Deno.test("a success status alone, or a refusal alone, is read as before", () => {
  // The refusal alone is the command's, as documented.
  const refused = "curl http://a.test/keys/a\n\nThis returns 404.\n";
  assert.deepEqual(statuses(convertCurl(refused).yaml), ["404"]);
  // A success status alone is no refusal, and words of failure beside it are another case's.
  const both = "curl http://a.test/keys\n\nIt returns 200.\nA missing key is rejected.\n";
  assert.deepEqual(statuses(convertCurl(both).yaml), ["{ lt: 400 }"]);
  const success = "curl http://a.test/keys\n\nStatus code: `201`\n";
  assert.deepEqual(statuses(convertCurl(success).yaml), ["{ lt: 400 }"]);
  // A port or a count is no status.
  const port = "curl http://a.test/keys/a\n\nThe server on port 2000 returns 404.\n";
  assert.deepEqual(statuses(convertCurl(port).yaml), ["404"]);
});

Deno.test("run against a server: each documented example gets its success", async () => {
  const todos = new Map<string, string>([["1", "a"]]);
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const id = /^\/todos\/(\d+)$/.exec(path)?.[1];
    if (path === "/todos" && req.method === "POST") {
      const { title } = await req.json();
      todos.set("2", title);
      return Response.json({ todo: { id: 2, title } }, { status: 201 });
    }
    if (!id || !todos.has(id)) {
      return Response.json({ message: "Todo item not found" }, { status: 404 });
    }
    if (req.method === "PUT") todos.set(id, (await req.json()).title);
    if (req.method === "DELETE") {
      todos.delete(id);
      return Response.json({ message: "Todo item deleted successfully" });
    }
    return Response.json({ todo: { id: Number(id), title: todos.get(id) } });
  });
  await withCurlFlow(DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.equal(todos.has("1"), false);
  });
});
