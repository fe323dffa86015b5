/**
 * `convert har` on a sequence number a poll echoes, as qBittorrent's web UI
 * does (tests/real/qbittorrent_har_test.ts): `GET /api/v2/sync/maindata?rid=N`
 * where N is the `rid` the previous answer gave (issue 52: a value a request
 * sends that an earlier response produced is a capture from that response,
 * whatever its name and however small). The stand-in numbers its answers
 * from a start of its own, as a server that was polled before does, and
 * refuses a `rid` it never issued. Widened to the class: the same echo in a
 * urlencoded field of a POST (`seq`); a page size the answer
 * repeats (`limit=10`, the client's own before the answer) and a poll's first
 * `rid=0` stay literal.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in whose sequence starts at `start`: a request must send 0 or the last number issued. */
function standIn(start: number) {
  const errors: string[] = [];
  const issued = { sync: start, changes: start };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/items") {
      return Response.json({ limit: Number(url.searchParams.get("limit")), items: [] });
    }
    const which = url.pathname === "/sync" ? "sync" : "changes";
    const sent = which === "sync"
      ? url.searchParams.get("rid")
      : new URLSearchParams(await req.text()).get("seq");
    const ok = sent === "0" || sent === String(issued[which]);
    if (!ok) errors.push(`${url.pathname} ${sent}, issued ${issued[which]}`);
    issued[which]++;
    const body = which === "sync" ? { rid: issued.sync } : { seq: issued.changes };
    return ok ? Response.json(body) : new Response("Unknown sequence", { status: 409 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function recording(): string {
  const form = "application/x-www-form-urlencoded";
  const changes = (since: number) => ({
    method: "POST",
    url: "http://127.0.0.1:4242/changes",
    headers: [["Content-Type", form]] as [string, string][],
    body: `seq=${since}&style=all`,
    mime: form,
    json: { seq: since + 1 },
  });
  return harOf([
    { url: "http://127.0.0.1:4242/items?limit=10", json: { limit: 10, items: [] } },
    { url: "http://127.0.0.1:4242/sync?rid=0", json: { rid: 1 } },
    { url: "http://127.0.0.1:4242/items?limit=10", json: { limit: 10, items: [] } },
    { url: "http://127.0.0.1:4242/sync?rid=1", json: { rid: 2 } },
    changes(0),
    { url: "http://127.0.0.1:4242/sync?rid=2", json: { rid: 3 } },
    changes(1),
    changes(2),
  ]);
}

Deno.test("convert har: a sequence number the previous answer of the same endpoint gave is captured, and the flow passes on a server numbering from elsewhere", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sequence-" });
  const app = standIn(500 + Math.floor(Math.random() * 400));
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = flow.split("\n").filter((line) => !line.trimStart().startsWith("#")).join("\n");
    const urls = [...sent.matchAll(/url: \$\{vars\.base_url\}(\/sync\S*)/g)].map((m) => m[1]);
    assert.deepEqual(urls, [
      "/sync?rid=0",
      "/sync?rid=${steps.get_sync.capture.rid}",
      "/sync?rid=${steps.get_sync_2.capture.rid}",
    ], flow);
    const since = [...sent.matchAll(/ {8}seq: (\S+)/g)].map((m) => m[1]);
    assert.deepEqual(since, [
      '"0"',
      "${steps.create_change.capture.seq}",
      "${steps.create_change_2.capture.seq}",
    ], flow);
    assert.equal(sent.match(/items\?limit=10\n/g)?.length, 2, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A stand-in that answers a known `rid` with what changed since: here, nothing but the `rid`. */
function deltaServer() {
  let rid = 40 + Math.floor(Math.random() * 40);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const sent = new URL(req.url).searchParams.get("rid");
    rid++;
    if (sent === "0") return Response.json({ rid, full_update: true, items: {}, state: {} });
    return Response.json({ rid });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

Deno.test("convert har: the answer to an echoed sequence number is a delta: only its sequence is checked, and the flow passes when nothing changed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sequence-" });
  const app = deltaServer();
  try {
    await Deno.writeTextFile(
      `${dir}/r.har`,
      harOf([
        {
          url: "http://127.0.0.1:4242/sync?rid=0",
          json: { rid: 1, full_update: true, items: { a: { n: 1 } }, state: { up: 1 } },
        },
        { url: "http://127.0.0.1:4242/sync?rid=1", json: { rid: 2, items: { a: { n: 2 } } } },
        { url: "http://127.0.0.1:4242/sync?rid=2", json: { rid: 3, state: { up: 2 } } },
      ]),
    );
    const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    // The full answer is checked whole; each delta only by its sequence number.
    assert.equal(flow.match(/path: \$\.json\.(items|state), type: object/g)?.length, 2, flow);
    assert.equal(flow.match(/path: \$\.json\.rid, type: number/g)?.length, 3, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
