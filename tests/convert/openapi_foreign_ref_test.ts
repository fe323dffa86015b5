/**
 * Of a body's `oneOf` branches, one that requires a reference to an item
 * at a path no operation of the document serves (Signal K's course API:
 * `PUT /course/destination` takes `{href: "/resources/waypoints/<uuid>"}`,
 * a waypoint of another API, or `{position: {latitude, longitude}}`) is
 * not the one sent when another branch needs nothing the suite cannot
 * make: the first branch named a waypoint that does not exist (400). A
 * reference to a path the document serves stays a fine first branch.
 */
import assert from "node:assert/strict";
import { ExampleMaker } from "../../lib/convert/openapi/examples.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const UUID = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}";

/** A course document whose destination is a waypoint's `href` (under `prefix`) or a position. */
function courseDocument(prefix: string, extraPaths: Record<string, unknown> = {}) {
  return {
    openapi: "3.0.0",
    info: { title: "Course", version: "1" },
    servers: [{ url: "/api/vessels/self/navigation" }],
    paths: {
      ...extraPaths,
      "/course/destination": {
        put: {
          summary: "Set destination.",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    { $ref: "#/components/schemas/HrefWaypointAttribute" },
                    { $ref: "#/components/schemas/PositionAttribute" },
                  ],
                  allOf: [{ $ref: "#/components/schemas/ArrivalCircleAttribute" }],
                },
              },
            },
          },
          responses: { "200": { description: "OK" } },
        },
      },
    },
    components: {
      schemas: {
        HrefWaypointAttribute: {
          type: "object",
          required: ["href"],
          properties: {
            href: {
              type: "string",
              pattern: `^${prefix}/${UUID}$`,
              description: "Reference to a related route resource. A pointer to the resource UUID.",
              example: `${prefix}/ac3a3b2d-07e8-4f25-92bc-98e7c92f7f1a`,
            },
          },
        },
        PositionAttribute: {
          type: "object",
          required: ["position"],
          properties: {
            position: {
              description: "Location coordinates.",
              example: { latitude: 65.4567, longitude: 3.3452 },
              type: "object",
              required: ["latitude", "longitude"],
              properties: {
                latitude: { type: "number", minimum: -90, maximum: 90 },
                longitude: { type: "number", minimum: -180, maximum: 180 },
              },
            },
          },
        },
        ArrivalCircleAttribute: {
          type: "object",
          properties: { arrivalCircle: { type: "number", minimum: 0, example: 500 } },
        },
      },
    },
  };
}

Deno.test("convert openapi sends the branch of a position, not an href to a waypoint no operation of the document serves", async () => {
  const bodies: unknown[] = [];
  const server = serveStandIn(async (req) => {
    const body = await req.json().catch(() => null);
    bodies.push(body);
    // As Signal K answers: the waypoint must exist; a position is enough.
    if (body?.href) return Response.json({ message: `No such ${body.href}` }, { status: 400 });
    const ok = typeof body?.position?.latitude === "number" &&
      typeof body?.position?.longitude === "number";
    return Response.json({ state: ok ? "COMPLETED" : "FAILED" }, { status: ok ? 200 : 400 });
  });
  const { runs } = await convertAndRunSuite(courseDocument("/resources/waypoints"), server);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.deepEqual(bodies, [{
    position: { latitude: 65.4567, longitude: 3.3452 },
    arrivalCircle: 500,
  }]);
});

Deno.test("a branch whose reference names a path the document serves is still the first", () => {
  const schema = {
    $ref: "#/paths/~1course~1destination/put/requestBody/content/application~1json/schema",
  };
  // The document serves the waypoints: the first branch can be made by a suite.
  const served = courseDocument("/resources/waypoints", {
    "/resources/waypoints/{id}": { get: { responses: { "200": { description: "A waypoint" } } } },
  });
  const first = new ExampleMaker(served).make(schema) as Record<string, unknown>;
  assert.equal(first.href, "/resources/waypoints/ac3a3b2d-07e8-4f25-92bc-98e7c92f7f1a");
  // Not served, but the other branch is the one made.
  const foreign = new ExampleMaker(courseDocument("/resources/waypoints")).make(schema) as Record<
    string,
    unknown
  >;
  assert.deepEqual(foreign.position, { latitude: 65.4567, longitude: 3.3452 });
  assert.equal(foreign.href, undefined);
});
