/**
 * `convert har` on an event feed read by long polls, as Syncthing's web GUI
 * reads `/rest/events` (tests/real/syncthing_har_test.ts): `?limit=1` gives
 * the last event's id, then `?since=<id>` is held by the server until a
 * newer event happens (the recording shows it: 2.5 s (the headers at once, the body held) and 1.2 s where the
 * other calls took milliseconds). In the browser the events came from the
 * app's parallel calls; a flow runs its steps one after another, so on a
 * fresh instance `since=3` waits for the server's timeout (Syncthing's
 * 60 s) and fails at the runner's. By evidence, not by path: a path read
 * again with another query value where the server held two answers ten
 * times longer than the recording's typical call and at least a second is a
 * long poll, and its reads are dropped and counted. Widened to the class: a
 * cursor-paged list answered at once, a slow report read twice and a list
 * whose first read was slow (a cold start) are kept.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A feed whose `since` waits for a newer event: none comes, so it holds until the client goes. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/events") {
      const since = Number(url.searchParams.get("since") ?? -1);
      if (since < 0) return Response.json([{ id: 2, type: "Starting" }]);
      return new Response(new ReadableStream({ start() {} }), {
        headers: { "content-type": "application/json" },
      });
    }
    if (req.method === "POST") return Response.json({ id: "a" }, { status: 201 });
    return Response.json({ items: [], next: "c2" });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** An entry whose answer took `wait` ms; `held` puts the time in the body, sent after the headers. */
function entry(method: string, path: string, json: unknown, wait: number, i: number, held = false) {
  const text = JSON.stringify(json);
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: wait + 1,
    request: { method, url: `http://127.0.0.1:8384${path}`, headers: [] },
    response: {
      status: method === "POST" ? 201 : 200,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { size: text.length, mimeType: "application/json", text },
    },
    timings: held ? { send: 0, wait: 1, receive: wait } : { send: 0, wait, receive: 1 },
    _resourceType: "xhr",
  };
}

Deno.test("convert har: an event feed the server held open is dropped as long polls; a paged list and a slow report are kept", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    const entries = [
      entry("GET", "/items", { items: [], next: "c2" }, 6, 0),
      entry("GET", "/events?limit=1", [{ id: 3, type: "Starting" }], 4, 1),
      entry("GET", "/items?after=c2", { items: [], next: "c3" }, 7, 2),
      entry("GET", "/items?after=c3", { items: [] }, 5, 3),
      entry("GET", "/events?since=3", [{ id: 4, type: "ConfigSaved" }], 2500, 4, true),
      entry("POST", "/items", { id: "a" }, 9, 5),
      entry("GET", "/events?since=4", [{ id: 5, type: "FolderSummary" }], 1200, 6),
      entry("GET", "/report", { items: [] }, 3000, 7),
      entry("GET", "/items?after=x", { items: [] }, 4, 8),
      entry("GET", "/report?page=2", { items: [] }, 2000, 9),
      entry("GET", "/cold", { items: [] }, 1800, 10),
      entry("GET", "/cold?page=2", { items: [] }, 6, 11),
    ];
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify({ log: { entries } }));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!/url: .*\/events/.test(flow), flow);
    assert.match(flow, /url: .*\/report\n/);
    assert.match(flow, /url: .*\/report\?page=2/);
    assert.match(flow, /url: .*\/cold\?page=2/);
    assert.match(flow, /url: .*\/items\?after=/);
    assert.match(converted.stderr, /long poll \(held until something happened\) 3/);
    const run = await runCli(["run", `${dir}/flow.yaml`, "--timeout", "3s"], {
      env: { BASE_URL: server.origin },
    });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
