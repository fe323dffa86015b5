/**
 * `convert har` on a number an answer hands out under a key that names no
 * id, sent back later. Seen on rspamd's controller (docs/real-servers-har.md):
 * `GET /maps` lists each map as `{"map": 2152313847, "description": …}`, the
 * map's number a hash of where this instance keeps it, and the web UI sends
 * it back as text in a `Map:` header to read (`GET /getmap`) and save
 * (`POST /savemap`) it. The number was sent as recorded, so a fresh instance
 * answered "no such map" and every later step was skipped. A large integer
 * (seven digits or more) that an answer gave is now captured where a later
 * request sends it (a header's or a query's text, a path segment, a JSON
 * number), whatever the key above it: only that answer can have given it. A
 * small number (a count, a page size), a round one (a size or a period
 * someone chose: a multiple of 1,000 or 1,024) and one the client sent first
 * stay as recorded.
 *
 * The stand-in runs on 127.0.0.1 and numbers its lists at random on each start.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:11334";
/** The numbers the recorded instance gave its two lists. */
const BLOCKED = 2152313847;
const ALLOWED = 132754364;

/** A stand-in whose lists have numbers of its own; a request naming another is refused 404. */
function standIn() {
  const blocked = 1_000_000 + Math.floor(Math.random() * 4_000_000_000);
  const lists = new Map<number, string>([[blocked, ""], [blocked + 17, "ok@example.org\n"]]);
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    if (url.pathname === "/lists") {
      return Response.json([
        { list: blocked + 17, description: "Senders we trust", size: 15 },
        { list: blocked, description: "Senders we refuse", size: lists.get(blocked)!.length },
      ]);
    }
    const named = req.headers.get("list") ?? url.searchParams.get("list") ??
      url.pathname.match(/^\/lists\/(\d+)$/)?.[1] ??
      (text.startsWith("{") ? String(JSON.parse(text).list) : null);
    const id = Number(named);
    if (!lists.has(id)) {
      refused.push(`${req.method} ${url.pathname} ${named}`);
      return Response.json({ error: "no such list" }, { status: 404 });
    }
    if (req.method === "POST") lists.set(id, text);
    return Response.json({ list: id, data: lists.get(id) });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** The listing as the recorded instance answered it. */
const listing: EntrySpec = {
  url: `${RECORDED}/lists`,
  json: [
    { list: ALLOWED, description: "Senders we trust", size: 15 },
    { list: BLOCKED, description: "Senders we refuse", size: 0 },
  ],
};

/** Where a later request sends the listed number back. */
const uses: [string, EntrySpec][] = [
  ["a header's text", {
    method: "POST",
    url: `${RECORDED}/savelist`,
    headers: [["List", String(BLOCKED)]],
    mime: "text/plain",
    body: "spam@bulk.example\n",
    json: { list: BLOCKED, data: "spam@bulk.example\n" },
  }],
  ["a query's text", {
    url: `${RECORDED}/getlist?list=${BLOCKED}`,
    json: { list: BLOCKED, data: "" },
  }],
  ["a path segment", {
    url: `${RECORDED}/lists/${BLOCKED}`,
    json: { list: BLOCKED, data: "" },
  }],
  ["a JSON number", {
    method: "POST",
    url: `${RECORDED}/savelist`,
    body: JSON.stringify({ list: BLOCKED }),
    json: { list: BLOCKED, data: '{"list":2152313847}' },
  }],
];

for (const [how, use] of uses) {
  Deno.test(`convert har: a large number an answer listed under a plain key, sent back in ${how}, is captured`, async () => {
    const { flow, run, server } = await convertHarThenRun(standIn, harOf([listing, use, use]));
    // Comments show the recorded URL; what is sent never holds the recorded number.
    const sent = flow.split("\n").filter((line) => !line.trimStart().startsWith("#")).join("\n");
    assert.ok(!sent.includes(String(BLOCKED)), flow);
    assert.match(flow, /\$\{steps\.list_lists\.capture\.\w+\}/, flow);
    // Read from the element the listing names by its description: a fresh one lists another order.
    assert.match(flow, /description == 'Senders we refuse'/, flow);
    assert.equal(run.code, 0, run.stdout + flow);
    assert.deepEqual(server.refused, []);
  });
}

/** The flow `convert har` writes for `specs`. */
async function converted(specs: EntrySpec[]): Promise<string> {
  return (await convertHarText(harOf(specs))).flow;
}

Deno.test("convert har: a small number an answer gave (a count) stays as recorded where it is sent", async () => {
  const flow = await converted([
    { url: `${RECORDED}/stats`, json: { total: 250, pages: 25 } },
    { url: `${RECORDED}/history?limit=25`, headers: [["Page-Size", "250"]] },
  ]);
  assert.match(flow, /history\?limit=25/, flow);
  assert.match(flow, /page-size: "250"/, flow);
  assert.doesNotMatch(flow, /capture/, flow);
});

Deno.test("convert har: a round large number an answer gave (a chosen size) stays as recorded", async () => {
  const flow = await converted([
    { url: `${RECORDED}/preferences`, json: { disk_queue_size: 1048576, max_age: 2592000 } },
    {
      method: "POST",
      url: `${RECORDED}/preferences`,
      body: JSON.stringify({ disk_queue_size: 1048576, max_age: 2592000 }),
    },
  ]);
  assert.match(flow, /disk_queue_size: 1048576/, flow);
  assert.match(flow, /max_age: 2592000/, flow);
  assert.doesNotMatch(flow, /capture/, flow);
});

Deno.test("convert har: a large number the client sent before an answer echoed it stays as recorded", async () => {
  const flow = await converted([
    {
      method: "POST",
      url: `${RECORDED}/orders`,
      body: '{"ref":48151623}',
      json: { ref: 48151623 },
    },
    { url: `${RECORDED}/orders/find`, headers: [["Order-Ref", "48151623"]] },
  ]);
  assert.match(flow, /order-ref: "48151623"/, flow);
  assert.doesNotMatch(flow, /capture/, flow);
});
