/**
 * `convert har` on a small number that a form's page hands out as a hidden input, when no answer
 * names it under any field. A print server's web admin (CUPS 2.4, docs/real-servers-har.md)
 * answers "Print Test Page" with text only ("job ID is Lobby_Laser-1"); its jobs page then lists
 * the pending job with a Cancel form whose hidden `job_id` holds 1, and the browser posts that
 * form back. Sent as recorded, the cancel passed on a fresh instance (its first job is 1 too) but
 * a second run on the same instance cancelled job 1 again: the server answered a 200 page saying
 * there is no such job, and the second run's own job stayed queued. The evidence is the page: a
 * browser sends a form's hidden fields as the page held them, so a number the page held under
 * that one name (every input of the name alike) is read from the page as the browser read it. The
 * stand-in numbers jobs from a counter, answers a cancel of an unknown job with a 200 page, and
 * lists its queued jobs, each with two forms holding its number, in small letters or in capitals
 * as CUPS's templates write them (`<INPUT TYPE="HIDDEN" NAME="job_id" …>`): the capture must match
 * the page as written.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8876";

const page = (body: string) => `<html><body>${body}</body></html>`;
/** The title the user typed for the test page; the jobs page shows it in the job's row. */
const TITLE = "Tide tables";
/** The printer's page: a form with a flag of the page's own (`copies` = 1) and the title typed. */
const printerPage = page(
  `<form method="post" action="/printers/desk"><input type="hidden" name="copies" value="1">` +
    `<input name="title"><input type="submit"></form>`,
);

/** A queued job's row: the title it was printed under and two forms holding its number, quoted by `q`. */
const jobRow = (job: number, q: string) =>
  `<tr><td>${TITLE}-${job}</td><td>` + ["cancel", "hold"].map((op) =>
    `<form method=${q}post${q} action=${q}/jobs${q}><input type=${q}hidden${q} name=${q}op${q} ` +
    `value=${q}${op}${q}><input type=${q}hidden${q} name=${q}job${q} value=${q}${job}${q}>` +
    `<input type=${q}submit${q} value=${q}${op}${q}></form>`
  ).join("") + "</td></tr>";

/** The jobs page listing `jobs`, its forms' tags and attributes in capitals when `caps`. */
const jobsPage = (jobs: number[], q: string, caps = false) => {
  const rows = jobs.map((j) => jobRow(j, q)).join("");
  const written = caps
    ? rows.replace(/<(\/?)(form|input|tr|td)\b/g, (_, s, t) => `<${s}${t.toUpperCase()}`)
      .replace(/ (method|action|type|name|value)=/g, (_, a) => ` ${a.toUpperCase()}=`)
    : rows;
  return page(`<h1>Jobs</h1><table>${written}</table>${rows ? "" : "<p>No jobs.</p>"}`);
};

/** The page a row's "move" answers: the job's number hidden in a form of its own, in no row. */
const movePage = (job: number) =>
  page(
    `<h1>Move job</h1><form method="post" action="/jobs"><input type="hidden" name="op" ` +
      `value="move-to"><input type="hidden" name="JOB" value="${job}"><select name="to">` +
      `<option value="loft">Loft</option></select><input type="submit"></form>`,
  );

/**
 * A print queue: a test page queues a job numbered from a counter; a cancel removes it; a row's
 * "move" answers the move page, whose post moves the job to another printer.
 */
function standIn(q: string, caps: boolean) {
  const queued: number[] = [];
  const cancelled: number[] = [];
  const moved: number[] = [];
  let next = 1;
  const html = (body: string) =>
    new Response(page(body), { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    if (req.method === "POST" && url.pathname === "/printers/desk") {
      queued.push(next++);
      return html(`Test page sent; job ID is desk-${next - 1}.`);
    }
    if (url.pathname === "/jobs" && req.method === "POST" && form.get("op") === "move") {
      return new Response(movePage(Number(form.get("job"))), {
        headers: { "content-type": "text/html" },
      });
    }
    if (url.pathname === "/jobs" && req.method === "POST" && form.get("op") === "move-to") {
      const job = Number(form.get("JOB"));
      if (!queued.includes(job)) return html(`Unable to move job ${job}: not found.`);
      moved.push(job);
      return html(`Job ${job} moved to ${form.get("to")}.`);
    }
    if (url.pathname === "/jobs" && req.method === "POST") {
      const job = Number(form.get("job"));
      const at = queued.indexOf(job);
      // An unknown job is refused on a page answered 200, as the real server does.
      if (at < 0) return html(`Unable to cancel job ${job}: not found.`);
      queued.splice(at, 1);
      cancelled.push(job);
      return html(`Job ${job} has been canceled.`);
    }
    if (url.pathname === "/jobs") {
      return new Response(jobsPage(queued, q, caps), { headers: { "content-type": "text/html" } });
    }
    return new Response(printerPage, { headers: { "content-type": "text/html" } });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    queued,
    cancelled,
    moved,
    close: () => server.shutdown(),
  };
}

/** The first three entries of the journey on a fresh instance: the printer, the print, the jobs page. */
const SPECS_BEFORE_CANCEL: EntrySpec[] = [
  { url: `${AT}/printers/desk`, html: printerPage },
  {
    method: "POST",
    url: `${AT}/printers/desk`,
    mime: "application/x-www-form-urlencoded",
    body: `copies=1&title=${encodeURIComponent(TITLE)}`,
    html: page("job ID is desk-1."),
  },
  { url: `${AT}/jobs`, html: jobsPage([1], `"`) },
];

/** The journey on a fresh instance: open the printer, print a test page (job 1), cancel it from the jobs page. */
function journey(q: string, listed: number[] = [1], job = 1, caps = false): string {
  const form = "application/x-www-form-urlencoded";
  const specs: EntrySpec[] = [
    { url: `${AT}/printers/desk`, html: printerPage },
    {
      method: "POST",
      url: `${AT}/printers/desk`,
      mime: form,
      body: `copies=1&title=${encodeURIComponent(TITLE)}`,
      html: page(`job ID is desk-${job}.`),
    },
    { url: `${AT}/jobs`, html: jobsPage(listed, q, caps) },
    {
      method: "POST",
      url: `${AT}/jobs`,
      mime: form,
      body: `op=cancel&job=${job}`,
      html: page(`Job ${job} has been canceled.`),
    },
  ];
  return harOf(specs);
}

/** The journey of `journey`, the job moved (its row's "move", then the move page's form) before the cancel. */
function moveJourney(): string {
  const specs: EntrySpec[] = JSON.parse(JSON.stringify(SPECS_BEFORE_CANCEL));
  const form = "application/x-www-form-urlencoded";
  const post = (body: string, html: string): EntrySpec => ({
    method: "POST",
    url: `${AT}/jobs`,
    mime: form,
    body,
    html,
  });
  specs.push(
    post("op=move&job=1", movePage(1)),
    post("op=move-to&JOB=1&to=loft", page("Job 1 moved to loft.")),
    { url: `${AT}/jobs`, html: jobsPage([1], `"`) },
    post("op=cancel&job=1", page("Job 1 has been canceled.")),
  );
  return harOf(specs);
}

for (const [q, caps] of [[`"`, false], [`'`, false], [`"`, true]] as const) {
  Deno.test(`convert har: a small number the form's page held hidden (${q}${caps ? ", in capitals" : ""}) is read from the page, and a second run cancels its own job`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-held-row-" });
    const server = standIn(q, caps);
    try {
      const { flow } = await convertHar(dir, journey(q, [1], 1, caps));
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        assert.deepEqual(
          { queued: server.queued, cancelled: server.cancelled },
          { queued: [], cancelled: run === 1 ? [1] : [1, 2] },
          `run ${run}\n${flow}`,
        );
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a page listing several rows' numbers under one name names none of them by its first", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-held-row-" });
  try {
    // The user cancelled job 2 of two listed: the page's first `job` is job 1, a position, not the row.
    const { flow } = await convertHar(dir, journey(`"`, [1, 2], 2));
    assert.match(flow, /job: "?2"?\n/, flow);
    assert.doesNotMatch(flow, /name="job"/, flow);
    // A flag of the printer's form, in no row of the journey's own, is the page's constant.
    assert.match(flow, /copies: "1"\n/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: the number a row's form sent is read again from the page it answered, outside any row, and a second run moves its own job", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-held-row-" });
  const server = standIn(`"`, false);
  try {
    const { flow } = await convertHar(dir, moveJourney());
    for (const run of [1, 2]) {
      const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
      assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
      const own = run === 1 ? [1] : [1, 2];
      assert.deepEqual({ moved: server.moved, cancelled: server.cancelled }, {
        moved: own,
        cancelled: own,
      }, `run ${run}\n${flow}`);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
