/**
 * `convert openapi` on a create whose answer has no `id` and nothing named
 * like the item's parameter, only one required text property (Jupyter
 * Server's `POST /api/terminals` answers a `Terminal` requiring only its
 * `name`, "1", which `/api/terminals/{terminal_id}` takes): the parameter
 * was a placeholder to fill in, and the run sent `string` (404). The
 * answer's sole required text property, which the collection's listing
 * holds of each item too, is now the item's handle: captured from the
 * create and sent in the item's path. Where the answer requires several,
 * or its one is a date or one of an enum, nothing is guessed. The stand-in
 * runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** The terminal schema: `required` of `properties`. */
function terminal(properties: Record<string, unknown>, required: string[]) {
  return { type: "object", required, properties };
}

function document(item: unknown) {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const param = { name: "terminal_id", in: "path", required: true, schema: { type: "string" } };
  return {
    openapi: "3.0.0",
    info: { title: "terminals", version: "1" },
    paths: {
      "/terminals": {
        get: {
          responses: { 200: { description: "All", ...json({ type: "array", items: item }) } },
        },
        post: { responses: { 200: { description: "Made", ...json(item) } } },
      },
      "/terminals/{terminal_id}": {
        parameters: [param],
        get: { responses: { 200: { description: "One", ...json(item) } } },
        delete: { responses: { 204: { description: "Gone" } } },
      },
    },
  };
}

/** Terminals named 1, 2, … as the server picks; only those it made are found. */
function terminals(asked: string[]) {
  const made = new Set<string>();
  return serveStandIn((req) => {
    const url = new URL(req.url);
    if (url.pathname === "/terminals") {
      if (req.method === "GET") return Response.json([...made].map((name) => ({ name })));
      const name = String(made.size + 1);
      made.add(name);
      return Response.json({ name, last_activity: "2024-01-01T00:00:00Z" });
    }
    const name = decodeURIComponent(url.pathname.split("/").at(-1)!);
    asked.push(`${req.method} ${name}`);
    if (!made.has(name)) return Response.json({ message: "Not found" }, { status: 404 });
    if (req.method === "DELETE") {
      made.delete(name);
      return new Response(null, { status: 204 });
    }
    return Response.json({ name });
  });
}

Deno.test("convert openapi: a create's sole required text property is its item's handle", async () => {
  const asked: string[] = [];
  const item = terminal({
    name: { type: "string", description: "name of terminal" },
    last_activity: { type: "string", description: "ISO 8601 timestamp" },
  }, ["name"]);
  const { runs: [run], summary } = await convertAndRunSuite(document(item), terminals(asked));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(asked, ["GET 1", "DELETE 1"]);
  assert.match(
    summary,
    /\{terminal_id\} of GET \/terminals\/\{terminal_id\} ← POST \/terminals \$\.json\.name/,
  );
});

Deno.test("convert openapi: no handle is guessed from several required properties, or a date", async () => {
  for (
    const item of [
      terminal({ name: { type: "string" }, shell: { type: "string" } }, ["name", "shell"]),
      terminal({ created: { type: "string", format: "date-time" } }, ["created"]),
      terminal({ state: { type: "string", enum: ["on", "off"] } }, ["state"]),
    ]
  ) {
    const asked: string[] = [];
    const { summary } = await convertAndRunSuite(document(item), terminals(asked));
    assert.doesNotMatch(summary, /\{terminal_id\} of GET [^\n]*←/, JSON.stringify(item));
  }
});
