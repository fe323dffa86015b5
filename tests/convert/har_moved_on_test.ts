/**
 * `convert har` on a write whose answer reports the state of work the server
 * goes on doing after answering, as Bull Board's `POST /api/queues/mail/add`
 * does (measured by hand, docs/real-servers-har.md): it answers the new job
 * and `"status": "active"`, the state the worker had reached when the
 * answer left; a replay at another pace, or with the worker still busy with
 * the job before, reads `"waiting"`. The evidence is the recording's own,
 * whatever the names: a later answer shows the item the write answered (the
 * object holding the same id) with a member changed (`returnValue` null,
 * then the job's result) while no request in between named the item, so
 * the server moved it on its own. The words of such an answer are a moment
 * of that work: checked by type, never pinned with `equals`. What the
 * request sent and the answer echoes is still pinned, and an answer whose
 * item the recording never shows changed keeps its pinned words.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const AT = "http://127.0.0.1:4242";

/** A stand-in whose jobs wait behind a busy worker: each add answers `waiting`. */
function standIn() {
  const jobs: { id: string; name: string; returnValue: unknown }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/jobs") {
      const { name } = await req.json();
      const job: { id: string; name: string; returnValue: unknown } = {
        id: String(jobs.length + 1),
        name,
        returnValue: null,
      };
      jobs.push(job);
      // The worker finishes it after the answer, as a queue does.
      setTimeout(() => job.returnValue = { sent: true }, 50);
      return Response.json({ job, status: "waiting" });
    }
    if (req.method === "POST" && path === "/api/notes") {
      const { text } = await req.json();
      return Response.json({ note: { id: "n1", text }, kind: "plain" });
    }
    if (path === "/api/jobs") return Response.json({ jobs: [...jobs].reverse() });
    if (path === "/api/notes") return Response.json({ notes: [{ id: "n1", text: "x" }] });
    return Response.json({ error: "not_found" }, { status: 404 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function recording(jsonBody: (name: string) => string): string {
  const job = { id: "7", name: "welcome", returnValue: null };
  return harOf([
    { url: `${AT}/api/jobs`, json: { jobs: [] } },
    {
      method: "POST",
      url: `${AT}/api/jobs`,
      body: jsonBody("welcome"),
      mime: "application/json",
      json: { job, status: "active" },
    },
    // The poll after it: the worker has finished the job, no request touched it.
    { url: `${AT}/api/jobs`, json: { jobs: [{ ...job, returnValue: { sent: true } }] } },
    {
      method: "POST",
      url: `${AT}/api/notes`,
      body: JSON.stringify({ text: "Dock schedule" }),
      mime: "application/json",
      json: { note: { id: "n1", text: "Dock schedule" }, kind: "plain" },
    },
    { url: `${AT}/api/notes`, json: { notes: [{ id: "n1", text: "Dock schedule" }] } },
  ]);
}

/** The body checks of the step `name` of `flow`. */
function checks(flow: string, name: string): string[] {
  const block = new RegExp(`- name: ${name}\\n(?:(?! {2}- name).*\\n?)*`).exec(flow)?.[0] ?? "";
  return [...block.matchAll(/\{ path: \$\.json\.[^}]*\}/g)].map((m) => m[0]);
}

for (
  const [what, body] of [
    ["a JSON body", (name: string) => JSON.stringify({ name, data: {} })],
    ["a JSON body with spaces", (name: string) => `{ "name": "${name}", "data": { } }`],
  ] as const
) {
  Deno.test(`convert har: a write's answer whose item the server later changes on its own pins none of its words (${what}), and the flow passes on a slower worker`, async () => {
    const { flow, run } = await convertHarThenRun(standIn, recording(body));
    assert.deepEqual(checks(flow, "create_job"), [
      "{ path: $.json.job, type: object }",
      "{ path: $.json.status, type: string }",
    ], flow);
    // An answer whose item the recording never shows changed keeps its pinned word.
    assert.ok(
      checks(flow, "create_note").includes("{ path: $.json.kind, equals: plain }"),
      flow,
    );
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  });
}
