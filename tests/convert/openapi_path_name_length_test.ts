/**
 * `convert openapi` on an item the client names in its path (`PUT
 * /shelves/{shelf_code}` makes or replaces the shelf at that code) whose path
 * parameter the document limits (`maxLength: 8`, as a Joi `.max(8)` becomes
 * in hapi-swagger's document): the converter makes the name per run
 * (`shelf_code-${RANDOM.HEX_8}`, 19 characters) and sent it whatever the
 * limit, so a server validating its path refused every call 400 though the
 * document said the limit (seen on a hapi inventory API, 2026-11-30).
 *
 * What the converter does: the made name keeps within the path parameter's
 * `maxLength` as a body's made text does (length_limits.ts): its stem cut,
 * else the random part alone. Run twice on one stand-in that refuses a code
 * over 8 characters.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const code = {
  name: "shelf_code",
  in: "path",
  required: true,
  schema: { type: "string", maxLength: 8 },
};
const body = {
  required: true,
  content: {
    "application/json": {
      schema: { type: "object", required: ["title"], properties: { title: { type: "string" } } },
    },
  },
};

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Shelves", version: "1" },
  paths: {
    "/shelves/{shelf_code}": {
      parameters: [code],
      put: { requestBody: body, responses: { "200": { description: "Made or replaced" } } },
      get: { responses: { "200": { description: "The shelf" } } },
    },
  },
};

function server() {
  const shelves = new Map<string, unknown>();
  return serveStandIn(async (req) => {
    const at = decodeURIComponent(new URL(req.url).pathname.split("/")[2] ?? "");
    if (at.length > 8) {
      const message = `"shelf_code" length must be less than or equal to 8`;
      return Response.json({ statusCode: 400, message }, { status: 400 });
    }
    if (req.method === "PUT") {
      shelves.set(at, await req.json().catch(() => ({})));
      return Response.json({ code: at, ...shelves.get(at) as object });
    }
    if (!shelves.has(at)) return Response.json({ message: "no shelf" }, { status: 404 });
    return Response.json({ code: at, ...shelves.get(at) as object });
  });
}

Deno.test("convert openapi: a name the client makes in a limited path parameter keeps within its maxLength, twice on one server", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(DOCUMENT, server(), { runs: 2 });
  const flow = [...flows.values()].join("\n");
  assert.match(flow, /shelf_code: \$\{RANDOM\.HEX_8\}/, flow);
  for (const run of runs) {
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /2 steps?: 2 passed/, run.stdout);
  }
});
