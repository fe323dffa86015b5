/**
 * A body's list of ids named for a noun in the plural (`roomIds: [integer]`)
 * whose items the noun's create makes, when that create's answer is
 * undescribed, is searched for as a single `roomId` is: its own name, then
 * `id`. A hotel booking API's booking sends `roomIds`; the room create
 * answers `{id, roomNumber, …}`, and only `roomIds` was searched for, so
 * nothing was captured and the booking, its update and its delete were
 * skipped.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const made = { "201": { description: "" } };
const json = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });

/** Rooms made by their create, and bookings of a list of them. */
function bookingDocument() {
  return {
    openapi: "3.0.0",
    info: { title: "Bookings", version: "1" },
    paths: {
      "/rooms": {
        post: {
          tags: ["rooms"],
          requestBody: json({
            type: "object",
            required: ["roomNumber"],
            properties: { roomNumber: { type: "string" } },
          }),
          responses: made,
        },
      },
      "/bookings": {
        post: {
          tags: ["bookings"],
          requestBody: json({
            type: "object",
            required: ["roomIds"],
            properties: { roomIds: { type: "array", items: { type: "integer" } } },
          }),
          responses: made,
        },
      },
    },
  };
}

Deno.test("convert openapi searches a created room's id for a body's list of room ids", async () => {
  const booked: unknown[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    if (path === "/rooms") {
      return Response.json({ id: 17, roomNumber: body.roomNumber }, { status: 201 });
    }
    booked.push(body.roomIds);
    const known = Array.isArray(body.roomIds) && body.roomIds.every((id: unknown) => id === 17);
    return known
      ? Response.json({ id: 5 }, { status: 201 })
      : Response.json({ message: "Room not found" }, { status: 404 });
  });
  const { runs, summary } = await convertAndRunSuite(bookingDocument(), server);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.deepEqual(booked, [[17]]);
  assert.match(
    summary,
    /roomIds\[\] of POST \/bookings ← POST \/rooms \$\.json\.\.\['roomIds','id'\]/,
  );
});
