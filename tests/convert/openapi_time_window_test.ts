/**
 * `convert openapi`: a request body's `date-time` that ends something (`endsAt`, `end_time`,
 * `validUntil`, `expiresAt`) is an hour after the request (`${NOW.ISO+1h}`), and its start
 * sibling (`startsAt`, `start_time`, `validFrom`) the time of the request (`${NOW.ISO}`): a
 * window that ended is refused, and so is one that ends before it starts. Alertmanager's
 * `postSilences` took both as the format sample `2024-01-01T00:00:00Z` ("start time must be
 * before end time", 400), and its `getSilence` and `deleteSilence` had no silence to address
 * (tests/real/alertmanager_openapi_test.ts). A date-time that is neither keeps the sample.
 *
 * The stand-in checks each window against its own clock, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const at = { type: "string", format: "date-time" };

/** A collection of windows named `noun`, whose create requires `start` and `end` (and `more`). */
function windows(noun: string, start: string, end: string, more: Record<string, unknown> = {}) {
  const id = `${noun}ID`;
  return {
    [`/${noun}s`]: {
      post: {
        tags: [noun],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: [start, end, "comment", ...Object.keys(more)],
                properties: { [start]: at, [end]: at, comment: { type: "string" }, ...more },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "made",
            content: {
              "application/json": {
                schema: { type: "object", properties: { [id]: { type: "string" } } },
              },
            },
          },
        },
      },
    },
    [`/${noun}/{${id}}`]: {
      parameters: [{ name: id, in: "path", required: true, schema: { type: "string" } }],
      get: { tags: [noun], responses: { "200": { description: "the window" } } },
      delete: { tags: [noun], responses: { "200": { description: "gone" } } },
    },
  };
}

/** The stand-in: a window is made when its start is before its end and its end still to come. */
function windowServer(pairs: Record<string, [string, string]>) {
  const made = new Set<string>();
  const refused: string[] = [];
  const stand = serveStandIn(async (req) => {
    const [, noun, id] = new URL(req.url).pathname.split("/");
    if (req.method === "POST") {
      const body = await req.json();
      const [start, end] = pairs[noun.replace(/s$/, "")].map((k) => Date.parse(body[k]));
      const issued = body.issuedAt === undefined || body.issuedAt === "2024-01-01T00:00:00Z";
      if (!(start < end) || !(end > Date.now()) || !issued) {
        refused.push(JSON.stringify(body));
        return Response.json("start time must be before end time", { status: 400 });
      }
      const key = crypto.randomUUID();
      made.add(key);
      return Response.json({ [`${noun.replace(/s$/, "")}ID`]: key });
    }
    const found = made.has(id);
    if (req.method === "DELETE") made.delete(id);
    return new Response(null, { status: found ? 200 : 404 });
  });
  return { ...stand, refused, made };
}

const document = (paths: Record<string, unknown>) => ({
  openapi: "3.0.3",
  info: { title: "Windows", version: "1" },
  paths,
});

Deno.test("convert openapi: a body's end date-time is an hour after the request and its start the request's time, so the window is made, read and deleted", async () => {
  const pairs: Record<string, [string, string]> = { silence: ["startsAt", "endsAt"] };
  const server = windowServer(pairs);
  const doc = document(windows("silence", "startsAt", "endsAt"));
  const { runs, flows, summary } = await convertAndRunSuite(doc, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary + server.refused);
  const flow = flows.get("silence.yaml") ?? "";
  assert.match(flow, /startsAt: \$\{NOW\.ISO\}/);
  assert.match(flow, /endsAt: \$\{NOW\.ISO\+1h\}/);
  assert.equal(server.made.size, 0, "each run deletes the window it made");
});

Deno.test("convert openapi: windows named start_time/end_time, validFrom/validUntil, beginsAt/expiresAt are the run's; an issuedAt keeps the sample", async () => {
  const pairs: Record<string, [string, string]> = {
    booking: ["start_time", "end_time"],
    grant: ["validFrom", "validUntil"],
    lease: ["beginsAt", "expiresAt"],
  };
  const server = windowServer(pairs);
  const doc = document({
    ...windows("booking", "start_time", "end_time"),
    ...windows("grant", "validFrom", "validUntil", { issuedAt: at }),
    ...windows("lease", "beginsAt", "expiresAt"),
  });
  const { runs, flows, summary } = await convertAndRunSuite(doc, server);
  assert.equal(runs[0].code, 0, runs[0].stdout + summary + server.refused);
  const all = [...flows.values()].join("\n");
  for (const [start, end] of Object.values(pairs)) {
    assert.match(all, new RegExp(`${start}: \\$\\{NOW\\.ISO\\}`));
    assert.match(all, new RegExp(`${end}: \\$\\{NOW\\.ISO\\+1h\\}`));
  }
  assert.match(all, /issuedAt: "2024-01-01T00:00:00Z"/);
});
