/**
 * An update named for a word of the document's title updates the API itself
 * only when that word names nothing the API holds. A FastAPI job board
 * titled "Job Board" routes its items under a verb after the collection's
 * noun (`GET /jobs/get/{id}`, `PUT /jobs/update/{id}`) and names its schemas
 * `JobCreate` and `ShowJob`: neither gave `job` as one of the API's own
 * resources, so "Update Job" was left out as an update of the API's own code
 * (never sent). The noun before the verb segment is the collection the item
 * belongs to (`verb_segments.ts`): `job` is one of the API's items.
 */
import assert from "node:assert/strict";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { ownResources, stopsServer } from "../../lib/convert/openapi/stops.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ok = { "200": { description: "OK" } };
const path = { name: "id", in: "path", required: true, schema: { type: "integer" } };

/** A board titled for its items, whose item paths put a verb between the noun and the id. */
const board = {
  openapi: "3.0.2",
  info: { title: "Task Board", version: "1.0.0" },
  paths: {
    "/tasks/add/": { post: { summary: "Add Task", responses: ok } },
    "/tasks/get/{id}": { get: { summary: "Read Task", parameters: [path], responses: ok } },
    "/tasks/update/{id}": {
      put: { summary: "Update Task", parameters: [path], responses: ok },
    },
  },
  components: { schemas: { TaskIn: { type: "object" }, ShowTask: { type: "object" } } },
};

Deno.test("the noun before an item's verb segment is one of the API's own resources", () => {
  const names = ownResources(board);
  assert.ok(names.has("task"), [...names].join());
  // A verb after a parameter, or no noun before the verb, names no collection of its own.
  const other = ownResources({ paths: { "/users/{id}/get": {}, "/{a}/delete/{id}": {} } });
  assert.deepEqual([...other].sort(), ["delete", "user"]);
});

Deno.test("an update of an item named by the title's first word does not stop the server", () => {
  const about = { title: board.info.title, resources: ownResources(board) };
  const ops = operationsOf(board);
  assert.deepEqual(ops.filter((op) => stopsServer(op, about)), []);
  // The API itself, named by a title none of whose words is an item, is still an update of its code.
  const [self] = operationsOf({
    paths: { "/system/update": { post: { summary: "Update Homebridge UI" } } },
  });
  assert.ok(stopsServer(self, { title: "Homebridge UI", resources: ownResources(board) }));
});

Deno.test("convert openapi sends an update under a verb segment named like the title", async () => {
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json({ id: 1, title: "t" });
  });
  const { summary } = await convertAndRunSuite(board, server);
  assert.doesNotMatch(summary, /stops the server/);
  assert.ok(seen.some((s) => s.startsWith("PUT /tasks/update/")), seen.join(", "));
});
