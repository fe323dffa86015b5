/**
 * `convert har` on a listing read before the server finished the record a write's answer named.
 * Seen on Cronicle 0.9.100 (docs/real-servers-har.md): "Run now" answers `{"ids": ["j…"]}` while
 * the job still runs; the page showed the job in the history 4 s later, finished (its `time_end`
 * after the answer), and the job's details, fetched by that id, exist only once it has finished.
 * The replay read the history and the details at once: the details answered an error, and the 21
 * steps after it were skipped. Evidence, not names: the id the write's answer handed out is first
 * shown by a read the page sends again unchanged, a later request sends the id, and the read's
 * item holding it carries a time later than the write's answer. Such a read now polls until its
 * body shows the captured id. A listing whose item carries no later time (a server that listed the
 * record when it answered) is read once, as before.
 *
 * The stand-in runs on 127.0.0.1: a run answers its job's id at once and finishes the job 600 ms
 * later; the history lists finished jobs only; the details of an unfinished job are refused.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5013";
/** When harOf starts each entry: second `i` of 2026-01-01, in Unix seconds. */
const AT = (i: number) => Date.UTC(2026, 0, 1, 0, 0, i) / 1000;

/** The stand-in: jobs that finish 600 ms after they are run. */
function standIn() {
  const jobs = new Map<string, { id: string; time_end?: number }>();
  const refused: string[] = [];
  let made = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const f = JSON.parse(await req.text() || "{}");
    if (pathname === "/api/run_event") {
      const id = `j${(++made).toString(36)}x${Date.now().toString(36)}`;
      const job: { id: string; time_end?: number } = { id };
      jobs.set(id, job);
      setTimeout(() => job.time_end = Date.now() / 1000, 600);
      return Response.json({ code: 0, ids: [id] });
    }
    if (pathname === "/api/get_history") {
      const rows = [...jobs.values()].filter((j) => j.time_end !== undefined).reverse();
      return Response.json({ code: 0, rows });
    }
    if (pathname === "/api/get_job_details") {
      const job = jobs.get(f.id);
      if (job?.time_end === undefined) {
        refused.push(`details ${f.id}`);
        return Response.json({ code: "job", description: "not finished" }, { status: 404 });
      }
      return Response.json({ code: 0, job });
    }
    if (pathname === "/api/delete_job") {
      jobs.delete(f.id);
      return Response.json({ code: 0 });
    }
    return Response.json({ code: "404" }, { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: async () => {
      await new Promise((r) => setTimeout(r, 700));
      await server.shutdown();
    },
  };
}

/**
 * The journey: run an event, read the history (its row's time `listed`), the job's details (its
 * end `ended`), delete it, read the history again.
 */
function journey(listed: number, ended: number): EntrySpec[] {
  const id = "jmx35nivc03";
  const history = { method: "POST", url: `${RECORDED}/api/get_history`, body: '{"offset":0}' };
  return [
    {
      method: "POST",
      url: `${RECORDED}/api/run_event`,
      body: '{"event":"e1"}',
      json: { code: 0, ids: [id] },
    },
    { ...history, json: { code: 0, rows: [{ id, code: 0, epoch: listed }] } },
    {
      method: "POST",
      url: `${RECORDED}/api/get_job_details`,
      body: JSON.stringify({ id }),
      json: { code: 0, job: { id, time_start: AT(0), time_end: ended } },
    },
    {
      method: "POST",
      url: `${RECORDED}/api/delete_job`,
      body: JSON.stringify({ id }),
      json: { code: 0 },
    },
    { ...history, json: { code: 0, rows: [] } },
  ];
}

/** Converts `specs` with default options and runs the flow twice on one stand-in. */
async function convertAndRunTwice(specs: EntrySpec[]) {
  const { flow, runs: [first, second], server } = await convertHarThenRun(
    standIn,
    harOf(specs),
    {},
    2,
  );
  assert.match(flow, /contains: "\$\{steps\.run_event\.capture\.[a-z_]+\}"/, flow);
  assert.equal(first.code, 0, first.stdout + flow);
  assert.equal(second.code, 0, second.stdout + flow);
  assert.deepEqual(server.refused, []);
}

Deno.test("convert har: a listing that showed a job finished after the run answered is read until it lists it", async () => {
  await convertAndRunTwice(journey(AT(0) + 0.6, AT(0) + 0.6));
});

Deno.test("convert har: a job's end after the run answered, shown only by its details, is waited for in the listing", async () => {
  await convertAndRunTwice(journey(AT(0), AT(0) + 0.6));
});

Deno.test("convert har: a listing of a record no answer shows changed after the write is read once", async () => {
  const { flow } = await convertHarText(harOf(journey(AT(0) - 5, AT(0) - 4)));
  assert.doesNotMatch(flow, /loop:/, flow);
});
