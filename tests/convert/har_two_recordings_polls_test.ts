/**
 * `convert har a.har b.har` when the page polls while the user works, at a pace of its own in
 * each session: Whistle's web UI (2.10, measured by hand) asks `GET /cgi-bin/log/get` and
 * `GET /cgi-bin/get-data` about once a second, so one recording held 6 polls before the rule's
 * create and 10 between it and the save, the other 10 and 8. The longest common sequence of
 * request shapes pairs more when it skips the create (here 7 + 10 against 11 + 8 gives 17 polls;
 * with the create paired, 7 + 1 + 8 = 16), so the create and the first save were reported "not
 * in the second recording" and what they sent had no evidence. Paired with another recording
 * where both sessions polled as many times in all, two deletes were skipped the same way. A
 * request each session sent once is a landmark of the journey; a shape sent dozens of times is
 * interchangeable with its neighbours: each shape weighs a share of the times it was sent, and the
 * pairing of the most weight is taken. Here the create sends a key the page made (`requestKey`),
 * which the server refuses to see twice: unpaired, it had no evidence and was asked for
 * (`CREATE_ITEM_REQUEST_KEY`), so the flow failed as the summary printed it; paired, it differs
 * between the sessions and is made fresh on each run.
 * Recordings too long for one table (over 4 million cells) were paired in order, which skips a
 * create the same way when one session polled more before it: the shapes each sent once are
 * now paired first, and the stretches between them as short recordings are.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

/** A stand-in that answers polls and makes items, refusing a request key it has seen. */
function standIn() {
  const seen = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/events" || path === "/log") return Response.json({ events: [] });
    if (path === "/items" && req.method === "POST") {
      const { requestKey } = await req.json();
      if (seen.has(requestKey)) {
        return Response.json({ error: `request ${requestKey} was made` }, { status: 409 });
      }
      seen.add(requestKey);
      return Response.json({ ok: true }, { status: 201 });
    }
    return Response.json({ items: seen.size });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * One session: `before` rounds of polls, a create under the request key the page made, `after`
 * rounds, a read. A round asks each of `polled` once.
 */
function session(before: number, after: number, requestKey: string, polled: string[]): string {
  const at = (path: string) => `http://127.0.0.1:8899${path}`;
  const round = (): EntrySpec[] => polled.map((p) => ({ url: at(p), json: { events: [] } }));
  return harOf([
    ...Array.from({ length: before }, round).flat(),
    {
      method: "POST",
      url: at("/items"),
      body: JSON.stringify({ name: "Lamp", requestKey }),
      status: 201,
      json: { ok: true },
    },
    ...Array.from({ length: after }, round).flat(),
    { url: at("/items"), json: { items: 1 } },
  ]);
}

/** Converts the two sessions, checks the create was paired and its key is the run's own, runs twice. */
async function passesTwice(first: string, second: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-polls-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHars(dir, [first, second]);
    assert.doesNotMatch(
      converted.stderr,
      /Not in the second recording[^\n]*POST/,
      converted.stderr,
    );
    assert.ok(!flow.includes("9f86d081884c7d65"), flow);
    for (const run of [1, 2]) {
      const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har with two recordings: a create each session sent once stays paired when the polls around it were sent at another pace, so the key the page made is the run's own and the flow passes twice", async () => {
  await passesTwice(
    session(7, 10, "9f86d081884c7d65", ["/events"]),
    session(11, 8, "5e884898da280471", ["/events"]),
  );
});

Deno.test("convert har with two recordings: a create stays paired when each session polled as many times in all, two URLs a round, but more of them before the create in one", async () => {
  await passesTwice(
    session(1, 6, "9f86d081884c7d65", ["/events", "/log"]),
    session(2, 5, "5e884898da280471", ["/events", "/log"]),
  );
});

Deno.test("convert har with two recordings: in recordings too long for one table, a create each sent once is paired before the thousands of polls around it", async () => {
  await passesTwice(
    session(2100, 10, "9f86d081884c7d65", ["/events"]),
    session(2000, 110, "5e884898da280471", ["/events"]),
  );
});
