/**
 * `convert har` on a notification feed read by one long poll the server
 * held for its own timeout, as NocoDB 0.262's dashboard reads
 * `GET /api/v1/notifications/poll` (docs/real-servers.md): the recording
 * shows one answer held 30 s (`{"status":"refresh"}`, the server's timeout)
 * where the other calls took milliseconds, and the browser's next poll was
 * cut off when the page closed (no status), so no second held read resumes
 * from the first. Replayed, the read waits the server's 30 s and fails at
 * the runner's own 30 s timeout, and every later step is skipped. By the
 * recording's evidence, not the path: a small answer held at least half
 * the runner's default timeout (and ten times the typical call) is a long
 * poll; its reads are dropped and counted. A report that took 5 s is kept.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** The feed answers nothing until the client goes; the rest answers at once. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/notifications/poll") {
      return new Response(new ReadableStream({ start() {} }), {
        headers: { "content-type": "application/json" },
      });
    }
    if (req.method === "POST") return Response.json({ id: "t1" }, { status: 201 });
    return Response.json({ list: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** An entry whose answer took `wait` ms (`status` -1: the page closed before it came). */
function entry(method: string, path: string, json: unknown, wait: number, i: number, status = 200) {
  const text = status > 0 ? JSON.stringify(json) : "";
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: wait + 1,
    request: { method, url: `http://127.0.0.1:8080${path}`, headers: [] },
    response: {
      status,
      headers: status > 0 ? [{ name: "Content-Type", value: "application/json" }] : [],
      cookies: [],
      content: { size: text.length, mimeType: "application/json", text },
    },
    timings: status > 0 ? { send: 0, wait, receive: 1 } : { send: -1, wait: -1, receive: -1 },
    _resourceType: "xhr",
  };
}

Deno.test("convert har: a read the server held for its own timeout (one answer, 30 s) is dropped as a long poll; a slow report is kept", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    const entries = [
      entry("GET", "/me", { list: [] }, 6, 0),
      entry("GET", "/notifications?is_read=false", { list: [] }, 5, 1),
      entry("GET", "/notifications/poll", { status: "refresh" }, 30_007, 2),
      entry("POST", "/tables", { id: "t1" }, 9, 3, 201),
      entry("GET", "/tables", { list: [] }, 7, 4),
      entry("GET", "/report", { list: [] }, 5_000, 5),
      entry("GET", "/tables/t1", { list: [] }, 4, 6),
      entry("GET", "/notifications/poll", {}, 4_500, 7, -1),
    ];
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify({ log: { entries } }));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!/url: .*\/notifications\/poll/.test(flow), flow);
    assert.match(flow, /url: .*\/notifications\?is_read=false/);
    assert.match(flow, /url: .*\/report\n/);
    assert.match(converted.stderr, /long poll \(held until something happened\) 1/);
    // Run as the summary says: the runner's default timeout, only the base URL.
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
