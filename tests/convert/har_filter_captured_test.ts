/**
 * `convert har` on a list row picked by a field that holds a captured value.
 * A capture from a list picks its row by a field that tells it apart
 * (`[?@.id == '…']`); Redis Commander's key tree names each row
 * `<connection id>:<key>`, and the connection id (`R:127.0.0.1:50261:0`,
 * the Redis server's address and port) is itself captured from an earlier
 * answer: on a fresh instance, whose Redis listens elsewhere, the filter
 * holding the recorded id matched nothing and the journey stopped there
 * (docs/real-servers-har.md). A field whose value holds a value the flow
 * captures is now never the one that tells rows apart: another field does
 * (here the row's text), in the conversion's filters and in those
 * `--verify` writes when it finds a row by its neighbours.
 *
 * The stand-in runs on 127.0.0.1 with a connection id of its own.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { emptyCorrelator } from "../../lib/convert/correlate/state.ts";
import { byNeighbours } from "../../lib/convert/verify_neighbours.ts";

const RECORDED = "http://127.0.0.1:8888";
const RECORDED_ID = "R:127.0.0.1:50261:0";

/** The key tree's top rows under connection `id`. */
const rows = (id: string) => [
  { id: `${id}:invoice:`, text: "invoice:* (1)", keyName: "invoice:", children: true },
  { id: `${id}:orders:`, text: "orders:* (3)", keyName: "orders:", children: true },
];

function standIn() {
  const id = `R:127.0.0.1:${40000 + Math.floor(Math.random() * 9999)}:0`;
  const seen = { folders: [] as string[] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/connections") {
      return Response.json({ ok: true, connections: [{ label: "local", conId: id }] });
    }
    const [, , , conn, folder] = url.pathname.split("/").map(decodeURIComponent);
    if (conn !== id) return Response.json({ error: "no such connection" }, { status: 404 });
    if (!folder) return Response.json({ data: rows(id) });
    seen.folders.push(folder);
    if (!rows(id).some((r) => r.keyName === folder)) return new Response(null, { status: 404 });
    return Response.json({ data: [{ id: `${id}:${folder}2026-0042`, keyName: "2026-0042" }] });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

function recording(): string {
  const conn = encodeURIComponent(RECORDED_ID);
  return harOf([
    {
      url: `${RECORDED}/connections`,
      json: { ok: true, connections: [{ label: "local", conId: RECORDED_ID }] },
    },
    { url: `${RECORDED}/apiv2/keystree/${conn}/`, json: { data: rows(RECORDED_ID) } },
    {
      url: `${RECORDED}/apiv2/keystree/${conn}/invoice%3A?absolute=false`,
      json: { data: [{ id: `${RECORDED_ID}:invoice:2026-0042`, keyName: "2026-0042" }] },
    },
  ]);
}

Deno.test("convert har: a row is not picked by a field holding a captured value, so a fresh instance's row is found", async () => {
  const { flow, run, server } = await convertHarThenRun(standIn, recording());
  assert.ok(!/\?@\.id == 'R:127/.test(flow), flow);
  assert.match(flow, /conId/, flow);
  assert.equal(run.code, 0, run.stdout + flow);
  assert.deepEqual(server.seen.folders, ["invoice:"]);
});

Deno.test("convert har --verify: a capture found by its row's neighbours is not found by a field holding a captured value", () => {
  const c = emptyCorrelator("a", true);
  c.captured.add(RECORDED_ID);
  const path = byNeighbours(c, { data: rows(RECORDED_ID) }, ["data", 0, "keyName"]);
  assert.deepEqual(path, ["data", { key: "text", value: "invoice:* (1)" }, "keyName"]);
});
