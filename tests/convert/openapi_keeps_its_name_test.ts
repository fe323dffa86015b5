/**
 * `convert openapi` on a write to an item the client names (`PATCH
 * /api/contents/{path}` of Jupyter Server, the file a `PUT` there made)
 * whose body has a property of the very name of the item's own parameter
 * (`{path}`: "New path for file or directory"): the body sent a made-up
 * `string`, so the PATCH renamed the run's file to `string` and every step
 * after it named a file gone (404); a second run's rename met the first's
 * `string` (409). The body now sends the path's own value: the write names
 * the item it is sent to. The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const FILE = { type: "object", properties: { path: { type: "string" } } };
const RENAME = {
  type: "object",
  properties: {
    path: { type: "string", format: "path", description: "New path for file or directory" },
  },
};

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "files", version: "1" },
  paths: {
    "/files/{path}": {
      parameters: [{ name: "path", in: "path", required: true, schema: { type: "string" } }],
      put: {
        requestBody: json({
          type: "object",
          required: ["content"],
          properties: { content: { type: "string" } },
        }),
        responses: { 201: { description: "Made", ...json(FILE) } },
      },
      patch: {
        requestBody: { required: true, ...json(RENAME) },
        responses: { 200: { description: "Renamed", ...json(FILE) } },
      },
      get: { responses: { 200: { description: "One", ...json(FILE) } } },
      delete: { responses: { 204: { description: "Gone" } } },
    },
  },
};

Deno.test("convert openapi: a write's body names the item it is sent to by the path's own value", async () => {
  const files = new Set<string>();
  const asked: string[] = [];
  const server = serveStandIn(async (req) => {
    const name = new URL(req.url).pathname.split("/").at(-1)!;
    const body = req.method === "PUT" || req.method === "PATCH" ? await req.json() : undefined;
    asked.push(`${req.method} ${name}${body?.path ? ` → ${body.path}` : ""}`);
    if (req.method === "PUT") {
      files.add(name);
      return Response.json({ path: name }, { status: 201 });
    }
    if (!files.has(name)) return Response.json({ message: "No such file" }, { status: 404 });
    if (req.method === "PATCH") {
      if (body.path !== name && files.has(body.path)) return Response.json({}, { status: 409 });
      files.delete(name);
      files.add(body.path);
      return Response.json({ path: body.path });
    }
    if (req.method === "DELETE") files.delete(name);
    return req.method === "DELETE"
      ? new Response(null, { status: 204 })
      : Response.json({ path: name });
  });
  const { runs } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const patch = asked.find((a) => a.startsWith("PATCH"))!;
  const [, name, to] = /^PATCH (\S+) → (\S+)$/.exec(patch)!;
  assert.equal(to, name);
  assert.equal(files.size, 0, [...files].join());
});
