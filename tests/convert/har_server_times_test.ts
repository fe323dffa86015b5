/**
 * `convert har` on a write that must carry the time the server last gave
 * the record, as Ghost's admin does (tests/real/ghost_har_test.ts): every
 * `PUT` of a post sends the `updated_at` of the answer before it, and the
 * server refuses any other with 409 (its collision check). The flow sent
 * the recorded time, so a fresh instance refused the first edit and every
 * later step was skipped.
 *
 * Evidence, whatever the key: a date with a time of day that an answer
 * gave and that no request sent before is the server's (it made it when it
 * stored the record); a later request sending it whole takes it from that
 * answer. Widened to the class: the ISO form with milliseconds, the SQL
 * form with a space, an offset instead of `Z`; in a JSON body, a query
 * value and a header. What the client sent first (a publication time the
 * user chose) and a date without a time of day stay as recorded.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** The three spellings of a time the stand-in gives, each under a key of its own. */
function spelled(ms: number) {
  const iso = new Date(ms).toISOString();
  return {
    updated_at: iso,
    modified: iso.slice(0, 19).replace("T", " "),
    revised: `${iso.slice(0, 19)}+00:00`,
  };
}

/** A stand-in that refuses a write (409) unless it carries each time it last gave. */
function standIn() {
  let clock = Date.now();
  let times = spelled(clock);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const answer = (status = 200) => {
      const item = { id: "itm_5f2a9c1e", title: "Notes", ...times, day: "2026-01-01" };
      return Response.json({ items: [item] }, { status });
    };
    if (req.method === "POST") return answer(201);
    const body = req.method === "PUT" ? (await req.json()).items[0] : {};
    const sent = {
      updated_at: body.updated_at,
      modified: url.searchParams.get("modified"),
      revised: req.headers.get("x-revised"),
    };
    if (JSON.stringify(sent) !== JSON.stringify(times)) {
      return Response.json({ errors: [{ type: "UpdateCollisionError" }] }, { status: 409 });
    }
    clock += 1_000;
    times = spelled(clock);
    return answer();
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

/** Create, then two edits, each sending the times of the answer before it. */
function recording(): string {
  const at = "http://127.0.0.1:2368";
  const json = "application/json";
  const item = (ms: number) => ({
    id: "itm_5f2a9c1e",
    title: "Notes",
    ...spelled(ms),
    day: "2026-01-01",
  });
  const first = Date.UTC(2026, 0, 1, 10, 0, 0, 123);
  const edit = (ms: number) => {
    const times = spelled(ms);
    return {
      method: "PUT",
      url: `${at}/items/itm_5f2a9c1e?modified=${encodeURIComponent(times.modified)}&day=2026-01-01`,
      headers: [["Content-Type", json], ["X-Revised", times.revised]] as [string, string][],
      body: JSON.stringify({
        items: [{ title: "Notes", updated_at: times.updated_at, publish_at: PUBLISH }],
      }),
      mime: json,
      json: { items: [item(ms + 7_000)] },
    };
  };
  return harOf([
    {
      method: "POST",
      url: `${at}/items`,
      headers: [["Content-Type", json]],
      body: JSON.stringify({ items: [{ title: "Notes", publish_at: PUBLISH }] }),
      mime: json,
      status: 201,
      json: { items: [item(first)] },
    },
    edit(first),
    edit(first + 7_000),
  ]);
}

/** A time the user chose and sent first: the client's own, never captured. */
const PUBLISH = "2026-02-01T09:00:00.000Z";

Deno.test("convert har: a time the server gave a record goes back from the answer that gave it (body, query, header), and the edits pass on a fresh server", async () => {
  const { flow, run } = await convertHarThenRun(standIn, recording());
  // No recorded server time is sent as written.
  for (const recorded of ["2026-01-01T10:00:00.123Z", "2026-01-01 10:00:07", "+00:00"]) {
    const literal = flow.split("\n").filter((l) => !l.trimStart().startsWith("#"))
      .filter((l) => l.includes(recorded) || l.includes(encodeURIComponent(recorded)));
    assert.deepEqual(literal, [], flow);
  }
  // What the client sent first and a date with no time stay as recorded.
  assert.equal(flow.match(new RegExp(`publish_at: "${PUBLISH}"`, "g"))?.length, 3, flow);
  assert.match(flow, /day=2026-01-01/, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
