/**
 * `convert har` on JSON-RPC calls whose server answers a failure with HTTP 200: Deluge's web UI
 * (tests/real/deluge.ts) answers `{result, error, id}`, and a refused call carries
 * `error: {message, code}` with status 200. The converter skipped the recorded `error: null` (nulls
 * give no type to check), so a replay the server refused at every call still passed.
 *
 * What the converter does (correlate/rpc_errors.ts): a request body that is a JSON-RPC call (a
 * `method` string with `params` or `id`, or a `jsonrpc` member) whose recorded answer holds
 * `error: null` is checked for `error` being null; a JSON-RPC 2.0 answer (`"jsonrpc": "2.0"`) with
 * no `error` member is checked for `error` not existing. A JSON body with an `error: null` that is
 * no JSON-RPC call gets no such check (a key name alone is no evidence).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf, rpcCall } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

/** A JSON-RPC server answering as recorded, or an error (HTTP 200) to the method `refused`. */
function rpcServer(refused?: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    const { method, id } = body;
    if (new URL(req.url).pathname === "/rpc2") {
      if (method === refused) {
        return Response.json({ jsonrpc: "2.0", error: { message: "Unknown method", code: 2 }, id });
      }
      return Response.json({ jsonrpc: "2.0", result: { version: "1.0" }, id });
    }
    if (new URL(req.url).pathname === "/notes") return Response.json({ saved: true, error: null });
    if (method === refused) {
      return Response.json({ result: null, error: { message: "Unknown method", code: 2 }, id });
    }
    return Response.json({ result: method === "web.connected", error: null, id });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function recording(): string {
  return harOf([
    rpcCall("web.connected", 1, true),
    rpcCall("core.get_config", 2, false),
    {
      method: "POST",
      url: "http://127.0.0.1:8112/rpc2",
      mime: "application/json",
      body: JSON.stringify({ jsonrpc: "2.0", method: "system.version", id: 3 }),
      json: { jsonrpc: "2.0", result: { version: "1.0" }, id: 3 },
    },
    {
      method: "POST",
      url: "http://127.0.0.1:8112/notes",
      mime: "application/json",
      body: JSON.stringify({ text: "hello" }),
      json: { saved: true, error: null },
    },
  ]);
}

Deno.test("convert har: a JSON-RPC answer's error is checked null (or absent, JSON-RPC 2.0), and a call the server refuses fails", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { flow } = await convertHar(dir, recording());
    assert.equal(flow.match(/\{ path: \$\.json\.error, equals: null \}/g)?.length, 2, flow);
    assert.equal(flow.match(/\{ path: \$\.json\.error, exists: false \}/g)?.length, 1, flow);
    for (const refused of [undefined, "core.get_config", "system.version"]) {
      const app = rpcServer(refused);
      try {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
        if (refused === undefined) assert.equal(out.code, 0, out.stdout);
        else {
          assert.notEqual(out.code, 0, `${refused}: ${out.stdout}`);
          assert.match(out.stdout, /error/, out.stdout);
          assert.match(out.stdout, /Unknown method/, out.stdout);
        }
      } finally {
        await app.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
