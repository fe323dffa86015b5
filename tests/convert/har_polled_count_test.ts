/**
 * `convert har` on a page that waits by polling a count, as Bull Board's
 * does (docs/real-servers-har.md, Bull Board): after "Retry all" the page
 * reads the queue again and again until its `failed` count is back, then
 * "Clean all" removes the failed job. The reads differ only in counts (no
 * status-like field, no text a write sent), so the conversion kept one read
 * and the replay sent "Clean all" before the worker had failed the job
 * again: it cleaned nothing, and a second run met a job left over.
 *
 * What the converter does (polls.ts, poll_counts.ts): identical reads right
 * after a write whose answers differ in whole numbers that stood still and
 * then moved past every earlier value (a count, not a clock) are one step
 * that polls until each such number reaches its recorded final value
 * (`gte` when it rose, `lte` when it fell), bounded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:8080";

/**
 * A queue whose worker takes 400 ms per job and fails a job whose recipient has no `@`; the
 * board lists the idle queues `listedFirst` before it.
 */
function queueStandIn(listedFirst: string[] = []) {
  const jobs = new Map<string, { state: string; to: string; attempts: number }>();
  let next = 1;
  let cleaned = 0;
  let retried = 0;
  const work = (id: string) => {
    const job = jobs.get(id)!;
    job.state = "active";
    setTimeout(() => {
      job.attempts++;
      job.state = job.to.includes("@") ? "completed" : "failed";
    }, 400);
  };
  const counts = () => {
    const c: Record<string, number> = { active: 0, completed: 0, failed: 0, waiting: 0 };
    for (const j of jobs.values()) c[j.state]++;
    return c;
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      const list = [...jobs].filter(([, j]) => j.state === "failed").map(([id, j]) => ({
        id,
        attemptsMade: j.attempts,
      }));
      const idle = listedFirst.map((name) => ({ name, counts: idleCounts(), jobs: [] }));
      return Response.json({
        queues: [...idle, { name: "mail", counts: counts(), jobs: list }],
        uptime: Math.round(performance.now()),
      });
    }
    if (url.pathname.endsWith("/add")) {
      const id = String(next++);
      jobs.set(id, { state: "waiting", ...(await req.json()), attempts: 0 });
      work(id);
      return Response.json({ id });
    }
    if (url.pathname.endsWith("/retry/failed")) {
      for (const [id, j] of jobs) {
        if (j.state === "failed") {
          retried++;
          work(id);
        }
      }
      return Response.json({});
    }
    for (const [id, j] of jobs) {
      if (j.state === "failed") {
        jobs.delete(id);
        cleaned++;
      }
    }
    return Response.json({});
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    state: () => ({ cleaned, retried, counts: counts() }),
    close: () => server.shutdown(),
  };
}

/** A JSON entry at second `s` (ms `ms`). */
function entry(method: string, path: string, json: unknown, s: number, body?: unknown) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString(),
    time: 4,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: body ? [{ name: "Content-Type", value: "application/json" }] : [],
      ...(body ? { postData: { mimeType: "application/json", text: JSON.stringify(body) } } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "application/json" }],
      content: { mimeType: "application/json", text: JSON.stringify(json) },
    },
    _resourceType: "fetch",
  };
}

type Counts = [active: number, failed: number];

const idleCounts = () => ({ active: 0, completed: 0, failed: 0, waiting: 0 });

/** The queue's answer with `active` and `failed` counts, at uptime `up` seconds, an idle queue after it. */
function queue([active, failed]: Counts, up: number) {
  const jobs = failed ? [{ id: "1", attemptsMade: 1 }] : [];
  return {
    queues: [
      { name: "mail", counts: { active, completed: 0, failed, waiting: 0 }, jobs },
      { name: "reports", counts: idleCounts(), jobs: [] },
    ],
    uptime: up * 1000,
  };
}

/** The journey: add a failing job, wait for it to fail, retry all, wait, clean all. */
function recording(firstWait: Counts[], secondWait: Counts[]): string {
  const read = "/api/queues?activeQueue=mail&status=failed";
  let s = 0;
  const entries = [entry("POST", "/api/queues/mail/add", { id: "1" }, s++, { to: "nobody" })];
  for (const c of firstWait) entries.push(entry("GET", read, queue(c, 10 + s), s++));
  entries.push(entry("POST", "/api/queues/mail/retry/failed", {}, s++));
  for (const c of secondWait) entries.push(entry("GET", read, queue(c, 10 + s), s++));
  entries.push(entry("POST", "/api/queues/mail/clean/failed", {}, s++));
  entries.push(entry("GET", read, queue([0, 0], 10 + s), s++));
  return JSON.stringify({ log: { version: "1.2", creator: { name: "t" }, entries } });
}

for (
  const [label, firstWait, secondWait] of [
    ["two reads each wait", [[1, 0], [0, 1]], [[1, 0], [0, 1]]],
    ["three reads each wait", [[1, 0], [1, 0], [0, 1]], [[1, 0], [1, 0], [0, 1]]],
    // Bull Board's page reads on its own pace, so a read after the count moved repeats the final
    // counts (measured on Bull Board 9.10, 2026-11-29): the wait is still the one before them.
    ["the count moved, then read again", [[1, 0], [0, 1], [0, 1]], [[1, 0], [0, 1], [0, 1], [
      0,
      1,
    ]]],
  ] as [string, Counts[], Counts[]][]
) {
  Deno.test(`convert har: a page that waits by polling a count polls until it moves (${label}); twice on one instance`, async () => {
    const dir = await Deno.makeTempDir();
    const app = queueStandIn();
    try {
      await Deno.writeTextFile(`${dir}/q.har`, recording(firstWait, secondWait));
      const out = await runCli(["convert", "har", `${dir}/q.har`, "-o", `${dir}/q.yaml`]);
      assert.equal(out.code, 0, out.stderr);
      const flow = await Deno.readTextFile(`${dir}/q.yaml`);
      assert.match(out.stderr, /2 polling loops/, out.stderr);
      // The clock beside the counts moves on every read: never waited for.
      assert.doesNotMatch(flow, /uptime", (gte|lte)/, flow);
      assert.match(flow, /counts\.failed", gte: 1, each: true \}/, flow);
      let cleaned = 0;
      for (const n of [1, 2]) {
        const retried = app.state().retried;
        const run = await runCli(["run", `${dir}/q.yaml`], { env: { BASE_URL: app.origin } });
        assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
        // "Clean all" found the job the worker failed again, on each run.
        assert.equal(app.state().cleaned, ++cleaned, `run ${n}\n${flow}`);
        // "Retry all" found the job failed, on each run: the first wait was waited for too.
        assert.equal(app.state().retried, retried + 1, `run ${n}\n${flow}`);
      }
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

// A board that lists its queues in another order on another instance (a Redis key scan's order,
// not the order they were made in): the count is read from the queue the recording waited on, by
// its name, not from the first queue listed.
Deno.test("convert har: a polled count is read from its list item by a field, not by position; twice", async () => {
  const dir = await Deno.makeTempDir();
  const app = queueStandIn(["reports"]);
  try {
    await Deno.writeTextFile(`${dir}/q.har`, recording([[1, 0], [0, 1]], [[1, 0], [0, 1]]));
    const out = await runCli(["convert", "har", `${dir}/q.har`, "-o", `${dir}/q.yaml`]);
    assert.equal(out.code, 0, out.stderr);
    const flow = await Deno.readTextFile(`${dir}/q.yaml`);
    assert.match(flow, /queues\[\?@\.name == 'mail'\]\.counts\.failed", gte: 1, each: true/, flow);
    for (const n of [1, 2]) {
      const { cleaned, retried } = app.state();
      const run = await runCli(["run", `${dir}/q.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
      assert.deepEqual([app.state().cleaned, app.state().retried], [cleaned + 1, retried + 1]);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: reads whose numbers move on every read (a clock) are not waited for", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const read = "/api/stats";
    const entries = [entry("POST", "/api/ping", {}, 0, { at: 1 })];
    for (const s of [1, 2, 3]) entries.push(entry("GET", read, { uptime: s * 1000, ticks: s }, s));
    const har = JSON.stringify({ log: { version: "1.2", creator: { name: "t" }, entries } });
    await Deno.writeTextFile(`${dir}/c.har`, har);
    const out = await runCli(["convert", "har", `${dir}/c.har`, "-o", `${dir}/c.yaml`]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /0 polling loops/, out.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
