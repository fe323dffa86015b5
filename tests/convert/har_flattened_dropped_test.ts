/**
 * `convert har` on chrome-har's recording of a JSON-RPC call with no parameters: chrome-har
 * writes `{"method":"system.listMethods","params":[],"id":0}` as the pairs `method` and `id`
 * only (an empty list makes no pair), so the body was rebuilt without `params` and Deluge's web
 * server (tests/real/deluge.ts) answered `result: null`, every step of that recording failing.
 * The size the browser sent is 12 bytes more, exactly `,"params":[]`, and the recording's other
 * bodies send `params` as a list: the one member that, put back empty, gives the size sent is
 * put back. A one-item list of a list (`"params":[["5d…"]]`, a call whose one parameter is a
 * list) comes back as the inner list, two bytes short: the one list member listed elsewhere that,
 * wrapped once more, gives the size sent is wrapped. A size no such member explains is still
 * noted, nothing guessed.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { chromeHarEntry } from "../support/har_records.ts";

const API = "http://127.0.0.1:8112/json";

/** A JSON-RPC server that refuses a call whose `params` is no list. */
function rpcServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { method, params, id } = await req.json();
    const nested = method !== "pause" || Array.isArray(params?.[0]);
    if (!Array.isArray(params) || !nested) {
      return Response.json({ result: null, error: "no params", id });
    }
    return Response.json({
      result: method === "list" ? ["a", "b"] : params.length,
      error: null,
      id,
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

async function convert(sent: Record<string, unknown>[]) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-dropped-" });
  const entries = sent.map((body) =>
    chromeHarEntry("POST", API, {
      result: body.method === "list" ? ["a", "b"] : 2,
      error: null,
      id: body.id,
    }, body)
  );
  const har = { log: { version: "1.2", creator: { name: "chrome-har", version: "1" }, entries } };
  await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
  const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { dir, summary: converted.stderr, flow: await Deno.readTextFile(`${dir}/ui.yaml`) };
}

Deno.test("convert har: an empty list chrome-har dropped is put back when the recording lists that member elsewhere and the size sent says so", async () => {
  const app = rpcServer();
  const { dir, summary, flow } = await convert([
    { method: "list", params: [], id: 0 },
    { method: "get", params: ["a", "b"], id: 1 },
    { method: "pause", params: [["a1"]], id: 2 },
  ]);
  try {
    assert.match(flow, /method: pause\n\s+params:\n\s+- \[a1\]/, flow);
    assert.doesNotMatch(summary, /lose JSON lists/, summary);
    assert.match(flow, /method: list\n\s+id: 0\n\s+params: \[\]/, flow);
    const run = await runCli(["run", `${dir}/ui.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, run.stdout + flow);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a size no listed member explains is still noted, nothing put back", async () => {
  const { dir, summary, flow } = await convert([
    { method: "list", params: [], tags: [], id: 0 },
    { method: "get", params: ["a", "b"], tags: ["x", "y"], id: 1 },
  ]);
  await Deno.remove(dir, { recursive: true });
  assert.match(summary, /lose JSON lists/, summary);
  assert.doesNotMatch(flow, /params: \[\]/, flow);
});
