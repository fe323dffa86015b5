/**
 * `convert openapi`: a request body's `format: date` text the document gives no value for is the
 * day of the run (`${NOW.DATE}`, read when the request is made), not the format sample
 * `2024-01-01`, a day long past. A Django REST framework booking API (drf-spectacular, 2024)
 * documents its booking's `booking_date` as a bare `format: date`; its create refused the sample
 * ("Date is Expired!", 400) and its read, update and delete had no booking to address. The day of
 * the run is neither before nor after today, so a server that refuses a past day (a booking) and
 * one that refuses a future day (a birth date) both take it. A date whose name says it ends
 * something (`end_date`, `valid_until`) is the day after, so a window of days ends after it starts.
 * A value the document gives is kept.
 *
 * The stand-in checks each day against its own clock (UTC), on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const day = { type: "string", format: "date" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A collection `noun` whose create requires `members` (a schema each), read and deleted by id. */
function collection(noun: string, members: Record<string, unknown>) {
  const item = { type: "object", properties: { id: { type: "integer", readOnly: true } } };
  return {
    [`/${noun}/`]: {
      post: {
        tags: [noun],
        requestBody: {
          required: true,
          ...json({ type: "object", required: Object.keys(members), properties: members }),
        },
        responses: { "201": { description: "made", ...json(item) } },
      },
    },
    [`/${noun}/{id}/`]: {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      get: { tags: [noun], responses: { "200": { description: "the item", ...json(item) } } },
      delete: { tags: [noun], responses: { "204": { description: "gone" } } },
    },
  };
}

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Days", version: "1" },
  paths: {
    ...collection("bookings", { booking_date: day, seats: { type: "integer" } }),
    ...collection("people", { born: day, name: { type: "string" } }),
    ...collection("leaves", { start_date: day, end_date: day }),
    ...collection("holidays", { on: { ...day, example: "2030-12-25" } }),
  },
};

/** The UTC day of a moment, as `format: date` writes it. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Why the stand-in refuses a body of `noun`, or undefined when it takes it. */
function refusal(noun: string, body: Record<string, string>): string | undefined {
  const today = dayOf(Date.now());
  if (noun === "bookings" && !(body.booking_date >= today)) return "Date is Expired!";
  if (noun === "people" && !(body.born <= today)) return "Born in the future";
  if (noun === "leaves" && !(today <= body.start_date && body.start_date < body.end_date)) {
    return "A leave ends after it starts, from today on";
  }
  if (noun === "holidays" && body.on !== "2030-12-25") return "Not the given day";
  return undefined;
}

Deno.test("convert openapi: a body's date is the day of the run, an end date the day after, so days a server checks against its clock are taken", async () => {
  const made = new Map<string, string>();
  const refused: string[] = [];
  let count = 0;
  const server = serveStandIn(async (req) => {
    const [, noun, id] = new URL(req.url).pathname.split("/");
    if (req.method === "POST") {
      const body = await req.json();
      const why = refusal(noun, body);
      if (why) {
        refused.push(`${noun} ${JSON.stringify(body)}`);
        return Response.json({ non_field_errors: [why] }, { status: 400 });
      }
      const key = String(++count); // never reused: flows run at once and delete
      made.set(key, noun);
      return Response.json({ id: Number(key) }, { status: 201 });
    }
    const found = made.has(id);
    if (req.method === "DELETE") {
      made.delete(id);
      return new Response(null, { status: found ? 204 : 404 });
    }
    return found ? Response.json({ id: Number(id) }) : new Response(null, { status: 404 });
  });
  const { runs, flows, summary } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary + refused.join("\n"));
  const all = [...flows.values()].join("\n");
  assert.match(all, /booking_date: \$\{NOW\.DATE\}/);
  assert.match(all, /born: \$\{NOW\.DATE\}/);
  assert.match(all, /start_date: \$\{NOW\.DATE\}/);
  assert.match(all, /end_date: \$\{NOW\.DATE\+1d\}/);
  assert.match(all, /"on": "2030-12-25"/, "a day the document gives is kept");
  assert.equal(made.size, 0, "each run deletes what it made");
});
