/**
 * `convert openapi`: a key the client names at its create is made in the form its parameter's
 * schema states: a UUID for `format: uuid` (Joi's `.guid()`, written by `hapi-swagger` as
 * `x-format: {guid}`). A Hapi social API's `POST /users/{userId}/friends/{friendId}` was sent
 * `friendId-…`, which its Joi refused 400 "\"friendId\" must be a valid GUID" before reading
 * anything else. A key of no stated form is still `name-…`.
 *
 * The stand-in below keeps its devices in memory on 127.0.0.1 and refuses a key that is no UUID.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, json } from "../support/openapi_doc_parts.ts";

const device = { type: "object", properties: { label: { type: "string", example: "Porch" } } };
const deviceId = {
  name: "deviceId",
  in: "path",
  required: true,
  schema: { type: "string", "x-format": { guid: true } },
};

const document = {
  openapi: "3.0.0",
  info: { title: "Devices", version: "1" },
  paths: {
    "/devices/{deviceId}": {
      put: {
        parameters: [deviceId],
        requestBody: { required: true, content: json(device) },
        responses: answers(device),
      },
      get: { parameters: [deviceId], responses: answers(device) },
    },
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function devices() {
  const rows = new Map<string, unknown>();
  return serveStandIn(async (req) => {
    const key = new URL(req.url).pathname.split("/")[2] ?? "";
    if (!UUID.test(key)) {
      return Response.json({ message: '"deviceId" must be a valid GUID' }, { status: 400 });
    }
    if (req.method === "PUT") rows.set(key, await req.json());
    const row = rows.get(key);
    return row ? Response.json(row) : Response.json({}, { status: 404 });
  });
}

Deno.test("a key the client names is made a UUID where its schema says one", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document, devices(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match([...flows.values()].join("\n"), /\$\{RANDOM\.UUID\}/);
});
