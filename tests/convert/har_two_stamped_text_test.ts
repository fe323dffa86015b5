/**
 * Two recordings of one journey whose texts differ only inside a date and
 * time the page read from its clock (Decap CMS, issue 52: the editor's "Now"
 * button wrote `date: 2026-11-30T03:56:00.000+00:00` into the post's front
 * matter; the second recording's minute was 58, and the two-recording flow
 * sent `date: 2026-11-30T03:${RUN_ID}:00.000+00:00`, no date at all). A
 * clock reading inside longer text is sent as recorded, as a whole one is: a
 * past time is still a time. Every spelling a page writes one in: ISO 8601
 * with `T` and an offset, with a space as SQL writes it, and a
 * `datetime-local` input's minutes without seconds.
 *
 * The server keeps posts whose text it checks: every date-time in it must be
 * one (a month 1 to 12, a minute under 60), as a static site generator
 * reading the front matter later does.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fullExchange } from "../support/har_records.ts";

/** A date and time in any of the spellings above. */
const STAMP = /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/g;

function startPosts() {
  const refused: string[] = [];
  let made = 0;
  const valid = (text: string) =>
    [...text.matchAll(STAMP)].every((m) => {
      const [mo, d, h, mi, s] = m.slice(2).map((x) => Number(x ?? 0));
      return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && s < 60;
    }) && !/\d{4}-\d{2}-\d{2}[T ]\d{2}:[^\d]/.test(text);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    const text = JSON.stringify(body);
    if (!valid(text)) {
      refused.push(text);
      return Response.json({ error: "not a date" }, { status: 422 });
    }
    return Response.json({ saved: ++made });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** One JSON post of a recording, made a few minutes before the clock readings it sends. */
function entry(path: string, body: unknown) {
  const url = `http://127.0.0.1:18431${path}`;
  return {
    ...fullExchange("POST", url, JSON.stringify(body), '{"saved":1}'),
    startedDateTime: "2026-11-30T03:56:00.000Z",
    _resourceType: "fetch",
  };
}

/** A recording whose page read the clock at `mm` minutes and `ss` seconds past 03:00. */
function recording(mm: string, ss: string): string {
  const entries = [
    entry("/persist", {
      action: "persistEntry",
      raw: `---\ntitle: Harbour notes\ndate: 2026-11-30T03:${mm}:00.000+00:00\n---\nHigh water.\n`,
    }),
    entry("/rows", { note: `Logged 2026-11-30 03:${mm}:${ss} by the harbour master` }),
    entry("/events", { text: `Starts 2026-11-30T03:${mm}, ends at noon` }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test" }, entries } });
}

Deno.test("two recordings: a clock reading inside longer text is sent as recorded, in every spelling", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-two-stamped-" });
  const posts = startPosts();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording("56", "12"));
    await Deno.writeTextFile(`${dir}/b.har`, recording("58", "47"));
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/a.har`,
      `${dir}/b.har`,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    // Neither a run id in its digits nor a variable asked for what the page's clock wrote.
    assert.doesNotMatch(flow, /RUN_ID|ENV\.(?!BASE_URL)/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: posts.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
    }
    assert.deepEqual(posts.refused, []);
  } finally {
    await posts.close();
    await Deno.remove(dir, { recursive: true });
  }
});
