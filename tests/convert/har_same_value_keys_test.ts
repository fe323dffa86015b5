/**
 * `convert har` where one answer handed out the same value under two keys:
 * a create answered `creationDate` and `modificationDate` equal (the same
 * millisecond), and the editor's save sends `modificationDate` back as its
 * collision check. Captured from the first key that held it, the save sent
 * the live `creationDate`, which a server that stamps the two a moment apart
 * refuses (jsreport: 500 `CONCURRENT_UPDATE_INVALID`, one fresh
 * run in 15: it stamps the two with two `new Date()` calls). A
 * field the request sends under a key the producing answer also has is
 * captured from that key; a key the answer does not have still takes the
 * first.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242";
const AT = "2026-01-01T10:00:00.000Z";

/** A stand-in stamping each create's two dates a millisecond apart, checking the save's. */
function standIn() {
  const items = new Map<string, { _id: string; createdAt: string; updatedAt: string }>();
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/items") {
      const now = Date.now();
      const item = {
        _id: crypto.randomUUID().replaceAll("-", "").slice(0, 16),
        createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now + 1).toISOString(),
      };
      items.set(item._id, item);
      return Response.json(item, { status: 201 });
    }
    const id = /^\/items\/(\w+)$/.exec(path)?.[1];
    const item = id ? items.get(id) : undefined;
    if (req.method === "PATCH" && item) {
      const { updatedAt, touched } = await req.json();
      if (updatedAt !== item.updatedAt) return new Response("modified", { status: 409 });
      if (touched !== item.createdAt) return new Response("not the create's", { status: 400 });
      item.updatedAt = new Date(Date.now() + 5).toISOString();
      return Response.json(item);
    }
    return new Response(null, { status: 404 });
  });
}

/** The journey: a create answered both dates equal, then a save sending them back. */
function journey(): string {
  const item = { _id: "hki8OGWi53bqXstg", createdAt: AT, updatedAt: AT };
  return harOf([
    { method: "POST", url: `${API}/items`, body: "{}", status: 201, json: item },
    {
      method: "PATCH",
      url: `${API}/items/${item._id}`,
      body: JSON.stringify({ updatedAt: AT, touched: AT }),
      json: { ...item, updatedAt: "2026-01-01T10:00:05.000Z" },
    },
  ]);
}

Deno.test("convert har: a value one answer held under two keys is captured from the key the request sends it under", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-same-value-" });
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey());
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(flow, /updated_at: \$\.json\.updatedAt/, flow);
    assert.match(flow, /updatedAt: \$\{steps\.[a-z_]+\.capture\.updated_at\}/, flow);
    // No key `touched` in the answer: the first key that held the value.
    assert.match(flow, /touched: \$\{steps\.[a-z_]+\.capture\.created_at\}/, flow);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
