/**
 * `convert har` on a small id an RPC call's answer handed out and later
 * calls send in their bodies, as Transmission's web UI does
 * (tests/real/transmission_har_test.ts): `torrent-add` answers
 * `{"arguments": {"torrent-added": {"id": 1, …}}}` and `torrent-get`,
 * `torrent-stop` and `torrent-remove` send `{"ids": [1]}` to the same
 * endpoint. A number that small is no evidence alone (a count, a page), so
 * it was sent as recorded, which passed only on a daemon whose next id
 * happened to be 1 again, and stopped nothing on any other (Transmission
 * ignores an unknown id). The evidence is where it goes: under an id-named
 * field, in a body sent to the endpoint (or below the path) that answered
 * it. Widened to the class: a singular `torrentId`, a REST bulk call below
 * the collection (`POST /todos/bulk` with `ids`), a torrent's `hashString` (an opaque
 * value, captured wherever it goes) in the same list; left as recorded: a
 * JSON-RPC 2.0 call number (`"id"` that its own answer echoes), a count.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in whose ids start at `first`; a call naming an unknown id fails. */
function standIn(first: number) {
  let next = first;
  const items = new Set<number>();
  const hashes = new Set<string>();
  const errors: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const call = await req.json();
    if (path === "/todos") {
      items.add(next);
      return Response.json({ id: next++ });
    }
    if (path === "/todos/bulk") {
      const ok = call.ids.every((id: number) => items.has(id));
      if (!ok) errors.push(`bulk ${call.ids}`);
      return Response.json({ done: ok });
    }
    const reply = (result: Record<string, unknown>) =>
      Response.json({ jsonrpc: "2.0", id: call.id, ...result });
    if (call.method === "add") {
      items.add(next);
      const hashString = [...crypto.getRandomValues(new Uint8Array(20))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
      hashes.add(hashString);
      return reply({ result: { added: { id: next++, hashString, count: 2 } } });
    }
    const ids: (number | string)[] = call.params.ids ?? [call.params.torrentId];
    const known = (id: number | string) => typeof id === "number" ? items.has(id) : hashes.has(id);
    const ok = ids.every(known) && call.params.count === 2;
    if (!ok) errors.push(`${call.method} ${ids} count ${call.params.count}`);
    if (call.method === "remove") ids.forEach((id) => typeof id === "number" && items.delete(id));
    return reply(ok ? { result: {} } : { error: { code: 1, message: "no such item" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

/** The recorded torrent's info hash: a fresh instance hands out another. */
const HASH = "bf4abf9c389d1769748b9a33edc8fce0c9683512";

function recording(): string {
  const url = "http://127.0.0.1:4242/rpc";
  const rpc = (id: number, method: string, params: unknown, result: unknown) => ({
    method: "POST",
    url,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    json: { jsonrpc: "2.0", id, result },
  });
  return harOf([
    rpc(1, "add", {}, { added: { id: 3, hashString: HASH, count: 2 } }),
    rpc(2, "get", { ids: [3, HASH], count: 2 }, {}),
    rpc(3, "stop", { torrentId: 3, count: 2 }, {}),
    rpc(4, "remove", { ids: [3], count: 2 }, {}),
    { method: "POST", url: "http://127.0.0.1:4242/todos", body: "{}", json: { id: 2 } },
    { method: "POST", url: "http://127.0.0.1:4242/todos/bulk", body: '{"ids":[2]}', json: {} },
  ]);
}

Deno.test("convert har: a small id an answer handed out is captured where a later body sends it under an id-named field to that endpoint, and the flow passes where ids start elsewhere", async () => {
  const { flow, run, server: app } = await convertHarThenRun(() => standIn(7), recording());
  // The call numbers its answers echo and the counts stay as recorded.
  for (const n of [1, 2, 3, 4]) assert.match(flow, new RegExp(`^\\s+id: ${n}$`, "m"), flow);
  assert.equal(flow.match(/count: 2$/gm)?.length, 3, flow);
  assert.ok(!flow.split("\n").some((l) => !l.includes("#") && l.includes(HASH)), flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(app.errors, [], flow);
});
