/**
 * A small row number a create answered with (`POST /todos` → `{"id": 5}`) and later requests
 * send as the path segment right under that collection (`/todos/5`) is captured, whatever its
 * size: seen on LoopBack's Todo example, whose flow wrote `/todos/5` and passed on a fresh
 * instance only because its next id happened to be 5 again. The same small number elsewhere (a
 * page size, another collection's row) is left as recorded.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { runPassesOn } from "../support/run_twice.ts";

/** A todo API whose ids start at `first`; `/pages/5` is a fixed page that always exists. */
function todoApi(first: number) {
  let next = first;
  const todos = new Map<number, { title: string }>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/todos") {
      const body = await req.json();
      todos.set(next, { title: String(body.title) });
      return Response.json({ id: next++, title: body.title }, { status: 200 });
    }
    if (url.pathname === "/pages/5") return Response.json({ page: 5 });
    const m = /^\/todos\/(\d+)$/.exec(url.pathname);
    const id = m ? Number(m[1]) : NaN;
    const todo = todos.get(id);
    if (!todo) return Response.json({ error: "no such todo" }, { status: 404 });
    if (req.method === "DELETE") {
      todos.delete(id);
      return new Response(null, { status: 204 });
    }
    if (req.method === "PATCH") todo.title = String((await req.json()).title);
    return Response.json({ id, title: todo.title, limit: url.searchParams.get("limit") });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

function recording(origin: string): string {
  const entry = (
    method: string,
    path: string,
    status: number,
    sent?: unknown,
    answer?: unknown,
  ) => ({
    startedDateTime: "2026-11-25T10:00:00.000Z",
    request: {
      method,
      url: `${origin}${path}`,
      headers: [{ name: "content-type", value: "application/json" }],
      ...(sent === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(sent) } }),
    },
    response: {
      status,
      headers: [],
      content: answer === undefined
        ? { mimeType: "", text: "" }
        : { mimeType: "application/json", text: JSON.stringify(answer) },
    },
    _resourceType: "fetch",
  });
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "/todos", 200, { title: "tea" }, { id: 5, title: "tea" }),
        entry("GET", "/todos/5?limit=5", 200, undefined, { id: 5, title: "tea", limit: "5" }),
        entry("PATCH", "/todos/5", 200, { title: "green tea" }, { id: 5, title: "green tea" }),
        entry("GET", "/pages/5", 200, undefined, { page: 5 }),
        entry("DELETE", "/todos/5", 204),
      ],
    },
  });
}

Deno.test("a small id a create answered with is captured where it goes back under its collection", async () => {
  const recorded = todoApi(5);
  const fresh = todoApi(41);
  try {
    const { yaml } = convertHar(recording(recorded.url));
    const body = yaml.replace(/^\s*#.*$/gm, "");
    assert.ok(!/\/todos\/5\b/.test(body), yaml);
    assert.match(body, /\/pages\/5\b/, "another collection's 5 is left as recorded");
    assert.match(body, /limit=5\b/, "a query's 5 is left as recorded");
    await runPassesOn(yaml, "todos.yaml", fresh.url);
  } finally {
    await recorded.stop();
    await fresh.stop();
  }
});
