/**
 * `convert har` on a read of what a write made after answering, as
 * qBittorrent's `torrents/add` does (tests/real/qbittorrent_har_test.ts): it
 * answers `Ok.` and adds the torrent a moment later; the web UI's next poll
 * lists it (its hash a key of `torrents`), and only then does the user open
 * its properties (`GET /torrents/properties?hash=…`). A replay sends that
 * read at once and, on a busy machine, gets 404. Evidence, whatever the
 * names: the value the read sends was in no request or answer before the
 * write, nor in the write's own answer, but in a later answer, so the server
 * made it after answering; such a read is retried on 404, bounded. Widened to
 * the class: the value in a path segment too; an id the write's own answer
 * gave is read at once, with no retry.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const HASH = "5b2c0e9f1d7a4c3b8e6f0a2d9c1b7e4f3a6d8c20";

/** A stand-in that makes an added item 300 ms after answering the add. */
function standIn() {
  let readyAt = Infinity;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const ready = Date.now() >= readyAt;
    if (url.pathname === "/add") {
      readyAt = Date.now() + 300;
      return new Response("Ok.");
    }
    if (url.pathname === "/orders") return Response.json({ id: "ord_9c41e7b2" }, { status: 201 });
    if (url.pathname === "/orders/ord_9c41e7b2") return Response.json({ id: "ord_9c41e7b2" });
    if (url.pathname === "/sync") {
      return Response.json({ items: ready ? { [HASH]: { n: 1 } } : {} });
    }
    const named = url.searchParams.get("hash") ?? url.pathname.split("/").pop();
    if (!ready || named !== HASH) return new Response("Not Found", { status: 404 });
    return Response.json({ hash: HASH, name: "sample" });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

function recording(): string {
  const at = "http://127.0.0.1:4242";
  const form = "application/x-www-form-urlencoded";
  return harOf([
    { url: `${at}/sync`, json: { items: {} } },
    {
      method: "POST",
      url: `${at}/add`,
      headers: [["Content-Type", form]],
      body: "name=sample",
      mime: form,
      html: "Ok.",
    },
    { url: `${at}/sync`, json: { items: { [HASH]: { n: 1 } } } },
    { url: `${at}/properties?hash=${HASH}`, json: { hash: HASH, name: "sample" } },
    { url: `${at}/items/${HASH}`, json: { hash: HASH, name: "sample" } },
    { method: "POST", url: `${at}/orders`, body: "{}", status: 201, json: { id: "ord_9c41e7b2" } },
    { url: `${at}/orders/ord_9c41e7b2`, json: { id: "ord_9c41e7b2" } },
  ]);
}

Deno.test("convert har: a read of what a write made after answering is retried on 404, and the flow passes on a server that makes it a moment later", async () => {
  const { flow, run } = await convertHarThenRun(standIn, recording());
  const retried = [
    ...flow.matchAll(/- name: (\w+)\n(?:(?! {2}- name).*\n)*? +retry:\n((?: {8}.*\n){3})/g),
  ].map((m) => `${m[1]} ${m[2].replace(/\s+/g, " ").trim()}`);
  assert.deepEqual(retried, [
    'list_properties count: 6 "on": [404] delay: "100ms"',
    'get_item count: 6 "on": [404] delay: "100ms"',
  ], flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
