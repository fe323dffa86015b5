/**
 * `convert har` on a JSON-RPC call that reads state the journey then changes: Deluge's web UI
 * (tests/real/deluge.ts) asks `web.connected` (answered `false`), then `web.connect`s, and a later
 * `web.update_ui` answers `"connected": true`. The converter pinned `result: false` as a stable
 * boolean, so a second run on the same instance (whose web server stays connected: the connection
 * outlives the logout) failed there and skipped the rest (7 of 39).
 *
 * What the converter does (correlate/rpc_state.ts): a JSON-RPC answer's `result` is the state the
 * method's last word names (`connected`); when a later answer of the recording holds a field of
 * that name with another value, the recording itself shows that state changing, so the result is
 * checked by its type. A result no later answer names otherwise (`auth.check_session`) stays
 * pinned.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf, rpcCall } from "../support/har_records.ts";

/** A JSON-RPC server whose `connected` state is one per process, as Deluge's web server's is. */
function rpcServer() {
  let connected = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { method, id } = await req.json();
    const answer = (result: unknown) => Response.json({ result, error: null, id });
    if (method === "auth.check_session") return answer(false);
    if (method === "web.connected") return answer(connected);
    if (method === "web.connect") return answer((connected = true, null));
    return answer({ connected, torrents: {} });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function recording(): string {
  return harOf([
    rpcCall("auth.check_session", 1, false),
    rpcCall("web.connected", 2, false),
    rpcCall("web.connect", 3, null),
    rpcCall("web.update_ui", 4, { connected: true, torrents: {} }),
  ]);
}

Deno.test("convert har: a JSON-RPC result a later answer shows changing is checked by type, and the flow passes twice on one server", async () => {
  const app = rpcServer();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const flow = await convertHarFile(`${dir}/app.har`, `${dir}/app.yaml`);
    const results = [...flow.matchAll(/\{ path: \$\.json\.result, (\w+: \w+) \}/g)].map((m) =>
      m[1]
    );
    assert.deepEqual(results.slice(0, 2), ["equals: false", "type: boolean"], flow);
    await runCliTwice(`${dir}/app.yaml`, app.origin, flow);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
