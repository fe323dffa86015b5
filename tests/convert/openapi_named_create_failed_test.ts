/**
 * `convert openapi`: a step on an item whose id the client names is skipped
 * when the create that makes it failed, as one on an item whose id a
 * response gives is. Found on an Express API on routing-controllers
 * (measured by hand): `POST /todo/` takes `{content, id}` (the client's id,
 * the run's own), `GET /todo/{id}` reads it; the create wants a key its
 * document never declares and answers 401, and the read, sent anyway, failed
 * 404 beside it: two failures for one cause, the second saying nothing. Now
 * the create's step captures its status when it is below 400 and each step
 * on the item runs only if that capture exists; skipped, it says why. Where
 * the create passes, the item's steps run and pass as before.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string", minLength: 1, maxLength: 50 };

/** A todo's create naming its own id, its read, update and delete; nothing declares a key. */
function document() {
  const todo = {
    type: "object",
    properties: { content: text, id: text },
    required: ["content", "id"],
  };
  const ok = { "200": { description: "Successful response", content: json({}) } };
  const id = [{ in: "path", name: "id", required: true, schema: { type: "string" } }];
  return {
    openapi: "3.0.0",
    info: { title: "Todos", version: "1" },
    paths: {
      "/todo/": {
        post: {
          tags: ["Todo"],
          requestBody: { required: true, content: json(todo) },
          responses: ok,
        },
      },
      "/todo/{id}": {
        get: { tags: ["Todo"], parameters: id, responses: ok },
        put: {
          tags: ["Todo"],
          parameters: id,
          requestBody: { required: true, content: json(todo) },
          responses: ok,
        },
        delete: { tags: ["Todo"], parameters: id, responses: ok },
      },
    },
  };
}

/** Todos in memory; creates refused 401 unless `open`. */
function server(open: boolean) {
  const todos = new Map<string, unknown>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST") {
      if (!open) return Response.json({ message: "Authorization is required" }, { status: 401 });
      const body = await req.json();
      todos.set(body.id, body);
      return Response.json(body);
    }
    const id = decodeURIComponent(pathname.split("/").pop() ?? "");
    if (!todos.has(id)) return Response.json({ message: "todo not found" }, { status: 404 });
    if (req.method === "DELETE") todos.delete(id);
    if (req.method === "PUT") todos.set(id, await req.json());
    return Response.json(todos.get(id) ?? {});
  });
}

Deno.test("the steps on a client-named item are skipped when its create failed", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), server(false));
  const [run] = runs;
  assert.equal(run.code, 1, `${summary}\n${run.stdout}\n${run.stderr}`);
  // The create's refusal is the one failure; the read, update and delete say why they did not run.
  assert.match(run.stdout, /4 steps: 0 passed, 1 failed, 3 skipped/, run.stdout);
  assert.doesNotMatch(run.stdout, /expected 200, got 404/, run.stdout);
});

Deno.test("the steps on a client-named item run when its create passed", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), server(true), { runs: 2 });
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /4 steps: 4 passed/, run.stdout);
  }
});
