/**
 * `convert har` on a single-page app whose router fetches a page's data at the page's path plus
 * a suffix: a job queue's dashboard (pg-boss dashboard 1.9, React Router, docs/real-servers-har.md)
 * lists its jobs as links `/queues/mail/jobs/<uuid>`, and opening one fetches
 * `/queues/mail/jobs/<uuid>.data`, then cancels and deletes it by posts to that same address. The
 * server made the UUID; the flow sent the recorded one and met 404 on a fresh instance. The page
 * before linked the path without the suffix: the id is captured from that link and the suffix
 * (`.data`) sent as recorded, so the flow passes on an instance whose job has another id, twice.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:3000";

/** The queue's page: its jobs, each linked by its id. */
const queuePage = (ids: string[]) =>
  `<html><body><table>${
    ids.map((id) => `<tr><td><a class="mono" href="/queues/mail/jobs/${id}">${id.slice(0, 8)}</a>`)
      .join("")
  }</table></body></html>`;

/** A stand-in whose one job has id `id`, answered and acted on only at `<id>.data`. */
function standIn(id: string) {
  let state = "created";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/queues/mail") {
      state = "created"; // The next run's job, under the same id: a stand-in's simplification.
      return new Response(queuePage([id]), { headers: { "content-type": "text/html" } });
    }
    if (path !== `/queues/mail/jobs/${id}.data`) {
      return Response.json({ error: "Job not found" }, { status: 404 });
    }
    if (req.method === "GET") return Response.json({ id, state });
    const form = new URLSearchParams(await req.text());
    if (form.get("intent") !== "cancel") return Response.json({ ok: false }, { status: 400 });
    state = "cancelled";
    return Response.json({ ok: true });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The recording: the queue's page, the job's data, the job cancelled, its data again. */
function recording(id: string): string {
  const data = `${AT}/queues/mail/jobs/${id}.data`;
  return harOf([
    { url: `${AT}/queues/mail`, html: queuePage([id]) },
    { url: data, json: { id, state: "created" } },
    {
      method: "POST",
      url: data,
      mime: "application/x-www-form-urlencoded",
      body: "intent=cancel",
      json: { ok: true },
    },
    { url: data, json: { id, state: "cancelled" } },
  ]);
}

Deno.test("convert har: a route's data request (a linked path plus `.data`) takes the id from the page's link, and passes twice on an instance whose id differs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-route-data-" });
  const app = standIn("9b2f4c1e-5a7d-4e8b-a3c6-0d1e2f3a4b5c");
  try {
    const { flow } = await convertHar(dir, recording("2b3065e7-a2e2-40f5-9552-0384c63c9954"));
    const sent = flow.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
    assert.ok(!/url: .*2b3065e7/.test(sent), flow);
    assert.ok(!/RANDOM/.test(sent), flow);
    assert.match(sent, /url: \$\{vars\.base_url\}\/queues\/mail\/jobs\/\$\{.*\}\.data\n/, flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
