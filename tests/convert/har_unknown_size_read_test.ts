/**
 * `convert har` on a Playwright recording of an editor that reads a catalog larger than the
 * runner reads by default, as n8n 1.123's editor reads `GET /types/nodes.json` (14.6 MB decoded,
 * 1.3 MB brotli on the wire; docs/real-servers.md): Playwright kept neither its text nor its
 * decoded size (`content.size` -1), only the compressed bytes on the wire (`bodySize`). Replayed
 * with the default `--max-body`, the read failed and every later step was skipped, though nothing
 * could be captured from it. By the recording's evidence, not the path: the recording's own
 * compressed answers of known size say how much the server's compression shrinks a body, so a
 * read of unknown size whose wire bytes could decode past the cap at that rate is dropped and
 * named; a small compressed read of unknown size is kept.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const WORDS = "node trigger action sends receives item field value option credential".split(" ");

/** JSON like a node catalog, `bytes` long or a little more: words repeat, numbers differ. */
function catalog(bytes: number): string {
  const nodes: string[] = [];
  let seed = 7;
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const words = Array.from({ length: 8 }, (_, k) => WORDS[(seed >> k * 3) % WORDS.length]);
    const node = JSON.stringify({ name: `node-${i}`, version: seed % 97, text: words.join(" ") });
    nodes.push(node);
    length += node.length + 1;
  }
  return `{"nodes":[${nodes.join(",")}]}`;
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

interface Served {
  text: string;
  wire: Uint8Array<ArrayBuffer>;
}

/** The big catalog and small ones, each sent gzip-compressed; the rest answers at once. */
function standIn(big: Served, small: Served) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const served = path === "/types/nodes.json" ? big : path.startsWith("/types/") ? small : null;
    if (served) {
      return new Response(served.wire, {
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
      });
    }
    if (req.method === "POST") return Response.json({ id: "w1" }, { status: 201 });
    return Response.json({ list: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** An entry as Playwright writes it: `bodySize` the wire bytes, `size` -1 when unknown. */
function entry(method: string, path: string, size: number, wire: number, gzipped: boolean) {
  const headers = [{ name: "Content-Type", value: "application/json" }];
  if (gzipped) headers.push({ name: "Content-Encoding", value: "gzip" });
  const status = method === "POST" ? 201 : 200;
  const text = method === "POST" ? JSON.stringify({ id: "w1" }) : undefined;
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 5,
    request: { method, url: `http://127.0.0.1:8080${path}`, headers: [] },
    response: {
      status,
      headers,
      cookies: [],
      bodySize: wire,
      content: { size, mimeType: "application/json", ...(text ? { text } : {}) },
    },
    _resourceType: "fetch",
  };
}

Deno.test("convert har: a compressed read of unknown size that could decode past the runner's cap, by the recording's own compression, is dropped and named; the rest pass", async () => {
  const bigText = catalog(12 * 1024 * 1024);
  const smallText = catalog(400_000);
  const big = { text: bigText, wire: await gzip(bigText) };
  const small = { text: smallText, wire: await gzip(smallText) };
  const entries = [
    entry("GET", "/settings", 11, 11, false),
    // Known decoded size: the evidence of how much this server's gzip shrinks its JSON.
    entry("GET", "/types/small.json", smallText.length, small.wire.length, true),
    entry("GET", "/types/nodes.json", -1, big.wire.length, true),
    // Unknown size too, but its wire bytes at that rate decode far below 10 MiB.
    entry("GET", "/types/credentials.json", -1, small.wire.length, true),
    entry("POST", "/workflows", 11, 11, false),
    entry("GET", "/workflows", -1, 11, false),
  ];
  // Run as the summary says: the runner's default cap, only the base URL.
  const { converted, flow, run } = await convertHarThenRun(
    () => standIn(big, small),
    JSON.stringify({ log: { entries } }),
  );
  assert.ok(!/url: .*\/types\/nodes\.json/.test(flow), flow);
  assert.match(flow, /url: .*\/types\/small\.json/);
  assert.match(flow, /url: .*\/types\/credentials\.json/);
  assert.match(converted.stderr, /larger than the runner reads \(--max-body\) 1/);
  assert.match(converted.stderr, /GET \/types\/nodes\.json/);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});

Deno.test("convert har: without a compressed answer of known size, a read of unknown size is kept (nothing says how large it decodes)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const entries = [
      entry("GET", "/settings", 11, 11, false),
      entry("GET", "/types/nodes.json", -1, 1_300_000, true),
    ];
    const { flow } = await convertHar(dir, JSON.stringify({ log: { entries } }));
    assert.match(flow, /url: .*\/types\/nodes\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
