/**
 * `convert har` on an editor that reads a catalog larger than the runner reads by default, as
 * n8n 1.123's editor reads `GET /types/nodes.json` (14.6 MB of node descriptions, sent
 * compressed; docs/real-servers.md): chrome-har records the answer's decoded size
 * (`content.size`) and no text. Replayed, the read fails at the runner's `--max-body` cap
 * (10 MiB) and every later step is skipped, though nothing is captured from it (no text to
 * capture from). By the recording's evidence, not the path: a read whose recorded answer is
 * larger than the runner's default cap is dropped and named in the summary; a read of a known
 * smaller size is kept.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";

const BIG = 11 * 1024 * 1024;

/** The catalog answers 11 MiB of JSON; the rest answers at once. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/types/catalog.json") {
      return Response.json({ nodes: "n".repeat(BIG) });
    }
    if (req.method === "POST") return Response.json({ id: "w1" }, { status: 201 });
    return Response.json({ list: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** An entry as chrome-har writes it: `size` the decoded size, the text only when kept. */
function entry(method: string, path: string, status: number, size: number, text?: string) {
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 5,
    request: { method, url: `http://127.0.0.1:8080${path}`, headers: [] },
    response: {
      status,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { size, mimeType: "application/json", ...(text ? { text } : {}) },
    },
    _resourceType: "xhr",
  };
}

Deno.test("convert har: a read whose recorded answer is larger than the runner's default body cap is dropped and named; the rest pass as the summary says", async () => {
  const small = JSON.stringify({ list: [] });
  const entries = [
    entry("GET", "/settings", 200, small.length, small),
    entry("GET", "/types/catalog.json", 200, BIG + 12),
    entry("GET", "/types/credentials.json", 200, 600_000),
    entry("POST", "/workflows", 201, 11, JSON.stringify({ id: "w1" })),
    entry("GET", "/workflows", 200, small.length, small),
  ];
  // Run as the summary says: the runner's default cap, only the base URL.
  const { converted, flow, run } = await convertHarThenRun(
    standIn,
    JSON.stringify({ log: { entries } }),
  );
  assert.ok(!/url: .*\/types\/catalog\.json/.test(flow), flow);
  assert.match(flow, /url: .*\/types\/credentials\.json/);
  assert.match(converted.stderr, /larger than the runner reads \(--max-body\) 1/);
  assert.match(converted.stderr, /GET \/types\/catalog\.json/);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
