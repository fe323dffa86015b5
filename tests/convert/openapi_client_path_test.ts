/**
 * `convert openapi` on an item the client names at its create (a PUT at the
 * item's own path, `PUT /api/contents/{path}` of Jupyter Server) whose
 * parameter another resource's create also answers under its name (a
 * session's `path`, the notebook it runs): the item was read from that
 * answer, so the session's create ran first in the files' flow and every
 * file step named the session's path, a file that does not exist (or, with
 * the session refused, was skipped). Another resource's answer only refers
 * to such an item; the client names it, so the run does
 * (`path-${RANDOM.HEX_8}`), sent to the PUT and to every step after it. The
 * stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const FILE = { type: "object", required: ["path"], properties: { path: { type: "string" } } };
const SESSION = {
  type: "object",
  properties: { id: { type: "string" }, path: { type: "string" } },
};
const PATH = { name: "path", in: "path", required: true, schema: { type: "string" } };

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "files", version: "1" },
  paths: {
    "/files/{path}": {
      parameters: [PATH],
      get: { tags: ["files"], responses: { 200: { description: "The file", ...json(FILE) } } },
      put: {
        tags: ["files"],
        requestBody: json({
          type: "object",
          required: ["content"],
          properties: { content: { type: "string" } },
        }),
        responses: { 201: { description: "Made", ...json(FILE) } },
      },
      delete: { tags: ["files"], responses: { 204: { description: "Gone" } } },
    },
    "/sessions": {
      post: {
        tags: ["sessions"],
        requestBody: json({ type: "object", properties: { path: { type: "string" } } }),
        responses: { 201: { description: "Made", ...json(SESSION) } },
      },
    },
    "/sessions/{session}": {
      parameters: [{ name: "session", in: "path", required: true, schema: { type: "string" } }],
      get: { tags: ["sessions"], responses: { 200: { description: "One", ...json(SESSION) } } },
    },
  },
};

Deno.test("convert openapi: an item the client names at its PUT is the run's own, not another create's answer", async () => {
  const files = new Set<string>();
  const asked: string[] = [];
  const server = serveStandIn(async (req) => {
    const url = new URL(req.url);
    const [, kind, name] = url.pathname.split("/");
    if (kind === "sessions") {
      await req.body?.cancel();
      const session = { id: "s1", path: "untitled-session.txt" };
      return Response.json(session, { status: req.method === "POST" ? 201 : 200 });
    }
    asked.push(`${req.method} ${name}`);
    if (req.method === "PUT") {
      await req.json();
      files.add(name);
      return Response.json({ path: name }, { status: 201 });
    }
    if (!files.has(name)) return Response.json({ message: "No such file" }, { status: 404 });
    if (req.method === "DELETE") files.delete(name);
    return req.method === "DELETE"
      ? new Response(null, { status: 204 })
      : Response.json({ path: name });
  });
  const { runs: [run], summary } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.doesNotMatch(summary, /\{path\} of [A-Z]+ \/files\/\{path\} ← POST \/sessions/);
  assert.equal(asked.length, 3, asked.join());
  const name = asked[0].split(" ")[1];
  assert.match(name, /^path-[0-9a-f]{8}$/);
  assert.deepEqual(asked.map((a) => a.split(" ")[0]), ["PUT", "GET", "DELETE"]);
  assert.ok(asked.every((a) => a.endsWith(name)));
});
