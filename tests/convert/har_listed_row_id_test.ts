/**
 * `convert har` on a small row id that an RPC endpoint's read listed and a
 * later call of that endpoint sends in a form field, as Tiny Tiny RSS's
 * reader does (tests/real/ttrss_har_test.ts): `POST /backend.php`
 * `op=feeds&method=view` answers `{"headlines": {"content": [{"id": 3,
 * "title": "Dredging finished"}, …]}}`, then `method=markSelected&ids=3`
 * stars that article. A number that small is no evidence alone, so it was
 * sent as recorded; tt-rss numbers the articles in the order its updater
 * fetched the feeds (`ORDER BY RAND()`), so the replay starred another
 * article in three runs of four, every step passing (200 either way).
 *
 * The evidence is where it goes: the field's name is the row's key (`ids`,
 * `id` for rows keyed `id`), the call goes to the endpoint whose answer
 * listed the row, and the list tells the row apart (its title), so the
 * flow takes the id of the row with the recorded title from the fresh
 * answer. Left as recorded: a number sent under another name (`feed_id=1`
 * beside a row 1), and one sent to another path.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const FORM = "application/x-www-form-urlencoded";
const TITLES = ["Dredging finished", "Pilot boat moved", "High water at dawn"];

/** A reader whose rows are numbered from `first` on, newest first; what was starred. */
function standIn(first: number) {
  const starred: string[] = [];
  const rows = TITLES.map((title, i) => ({ id: first + TITLES.length - 1 - i, title }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    if (form.get("method") === "view") return Response.json({ headlines: { content: rows } });
    const row = rows.find((r) => String(r.id) === form.get("ids"));
    if (row) starred.push(row.title);
    return Response.json({ message: "UPDATE_COUNTERS", feed: form.get("feed_id") });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, starred, close: () => server.shutdown() };
}

/** The recording: a view listing rows 3, 2, 1, then the star of row 3 and a feed's catch-up. */
function recording(starPath = "/backend.php"): string {
  const rows = TITLES.map((title, i) => ({ id: 3 - i, title, feed_id: 1 }));
  return harOf([
    {
      method: "POST",
      url: "http://rss.test/backend.php",
      body: "op=feeds&method=view&feed=1",
      mime: FORM,
      json: { headlines: { content: rows } },
    },
    {
      method: "POST",
      url: `http://rss.test${starPath}`,
      body: "op=rpc&method=markSelected&ids=3&cmode=2",
      mime: FORM,
      json: { message: "UPDATE_COUNTERS" },
    },
    {
      method: "POST",
      url: "http://rss.test/backend.php",
      body: "op=rpc&method=catchupFeed&feed_id=1",
      mime: FORM,
      json: { message: "UPDATE_COUNTERS" },
    },
  ]);
}

Deno.test("convert har: a small id an endpoint's read listed, sent back to it in a field named for the rows' key, is taken from the fresh list by the row's title", async () => {
  const { flow, run, server: fresh } = await convertHarThenRun(() => standIn(7), recording());
  assert.match(
    flow,
    /\$\.json\.headlines\.content\[\?@\.title == 'Dredging finished'\]\.id/,
    flow,
  );
  assert.match(flow, /^\s+ids: \$\{steps\.\w+\.capture\.\w+\}$/m, flow);
  assert.match(flow, /^\s+feed_id: "1"$/m, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(fresh.starred, ["Dredging finished"]);
});

Deno.test("convert har: the same small number sent to another path stays as recorded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { flow } = await convertHar(dir, recording("/other.php"));
    assert.match(flow, /^\s+ids: "3"$/m, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
