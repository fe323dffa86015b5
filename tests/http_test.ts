import assert from "node:assert/strict";
import {
  DEFAULT_MAX_BODY_BYTES,
  formatBytes,
  RequestError,
  type ResolvedRequest,
  send,
  type SendOptions,
} from "../lib/http.ts";

const MiB = 1024 * 1024;

/** Serves `handler` on 127.0.0.1, port 0, for the duration of `body`. */
async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  body: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await body(`http://127.0.0.1:${server.addr.port}/`);
  } finally {
    await server.shutdown();
  }
}

function get(url: string): ResolvedRequest {
  return { method: "GET", url, headers: [] };
}

/** The RequestError `send` rejects with. */
async function failure(url: string, options: Partial<SendOptions> = {}): Promise<RequestError> {
  try {
    await send(get(url), { timeoutMs: 10_000, ...options });
  } catch (error) {
    assert.ok(error instanceof RequestError, `not a RequestError: ${error}`);
    return error;
  }
  assert.fail("send did not throw");
}

/**
 * A body of `chunks` chunks of `size` bytes (zeros), produced only as fast as
 * it is read; `pulled()` says how many chunks were asked for.
 */
function zeros(chunks: number, size = 64 * 1024) {
  let count = 0;
  const chunk = new Uint8Array(size);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (count++ >= chunks) controller.close();
      else controller.enqueue(chunk);
    },
  }, { highWaterMark: 1 });
  return { stream, pulled: () => count };
}

Deno.test("formatBytes names sizes the way the cap message does", () => {
  assert.equal(formatBytes(DEFAULT_MAX_BODY_BYTES), "10 MiB");
  assert.equal(formatBytes(MiB), "1 MiB");
  assert.equal(formatBytes(3 * 2 ** 30), "3 GiB");
  assert.equal(formatBytes(1536), "1.5 KiB");
  assert.equal(formatBytes(999), "999 bytes");
});

Deno.test("send reads a body just under, and exactly at, the cap", async () => {
  for (const size of [MiB - 1, MiB]) {
    await withServer(() => new Response("x".repeat(size)), async (url) => {
      const response = await send(get(url), { timeoutMs: 10_000, maxBodyBytes: MiB });
      assert.equal(response.text.length, size);
    });
  }
});

Deno.test("send reads a body under the default cap of 10 MiB", async () => {
  const size = DEFAULT_MAX_BODY_BYTES - 10;
  await withServer(() => new Response("y".repeat(size)), async (url) => {
    const response = await send(get(url), { timeoutMs: 10_000 });
    assert.equal(response.text.length, size);
  });
});

Deno.test("send stops a 50 MB body at a 1 MiB cap with body-too-large", async () => {
  const body = zeros(800); // 800 × 64 KiB = 50 MiB
  await withServer(() => new Response(body.stream), async (url) => {
    const error = await failure(url, { maxBodyBytes: MiB });
    assert.equal(error.code, "body-too-large");
    assert.equal(
      error.message,
      "The response body is larger than 1 MiB (the cap); raise it with --max-body or check the endpoint.",
    );
  });
  assert.ok(body.pulled() < 800, `the server was read to the end (${body.pulled()} chunks)`);
});

Deno.test("send stops a body one byte over the cap", async () => {
  await withServer(() => new Response("x".repeat(MiB + 1)), async (url) => {
    assert.equal((await failure(url, { maxBodyBytes: MiB })).code, "body-too-large");
  });
});

/** Writes bits least significant first, the way deflate packs them. */
class Bits {
  bytes: number[] = [];
  #bit = 0;
  /** `count` bits of `value`, low bit first. */
  put(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      if (this.#bit === 0) this.bytes.push(0);
      this.bytes[this.bytes.length - 1] |= ((value >> i) & 1) << this.#bit;
      this.#bit = (this.#bit + 1) % 8;
    }
  }
  /** A Huffman code: its bits go out most significant first. */
  code(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.put((value >> i) & 1, 1);
  }
}

/**
 * A gzip stream inflating to about 10 GiB of zeros from 65 MB, produced only
 * as fast as it is read: one fixed-Huffman deflate block of "copy the last
 * 258 bytes" matches (8 of them fill 13 bytes), so the server spends no time
 * compressing. Its end is never reached, so it has no trailer.
 */
function gzipBomb() {
  const match = (bits: Bits) => {
    bits.code(0b11000101, 8); // length code 285: 258 bytes
    bits.code(0, 5); // distance code 0: 1 byte back
  };
  const head = new Bits();
  head.put(1, 1); // final block
  head.put(1, 2); // fixed Huffman codes
  head.code(0b00110000, 8); // literal 0
  match(head); // 3 + 8 + 13 bits: byte-aligned from here on
  const unit = new Bits();
  for (let i = 0; i < 8; i++) match(unit);
  assert.equal(head.bytes.length, 3);
  assert.equal(unit.bytes.length, 13);
  const chunk = new Uint8Array(13 * 5000); // 5000 units: 10,320,000 bytes inflated
  for (let i = 0; i < chunk.length; i += 13) chunk.set(unit.bytes, i);
  const chunks = 1041; // × 10.3 MB ≈ 10 GiB, from 67 MB
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, ...head.bytes]));
    },
    pull(controller) {
      if (pulled++ >= chunks) controller.close();
      else controller.enqueue(chunk);
    },
  }, { highWaterMark: 1 });
  return { stream, pulled: () => pulled, chunks };
}

Deno.test("send stops a gzip bomb right after the cap, counting decompressed bytes", async () => {
  const bomb = gzipBomb();
  const started = performance.now();
  const before = Deno.memoryUsage().rss;
  await withServer(
    () => new Response(bomb.stream, { headers: { "content-encoding": "gzip" } }),
    async (url) => {
      const error = await failure(url, { maxBodyBytes: 4 * MiB });
      assert.equal(error.code, "body-too-large");
      assert.equal(
        error.message,
        "The response body is larger than 4 MiB (the cap); raise it with --max-body or check the endpoint.",
      );
    },
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 2000, `took ${Math.round(elapsed)} ms`);
  // What the socket buffers hold is sent ahead, but only a few MB of 67.
  assert.ok(bomb.pulled() < bomb.chunks / 4, `read ${bomb.pulled()} of ${bomb.chunks} chunks`);
  const grown = Deno.memoryUsage().rss - before;
  assert.ok(grown < 128 * MiB, `RSS grew by ${Math.round(grown / MiB)} MiB`);
});

Deno.test("send reads a real gzip body and caps it by its decompressed size", async () => {
  const zeros64MiB = zeros(1024); // 64 MiB, compressed by zlib to about 65 KB
  const compressed = new Uint8Array(
    await new Response(
      zeros64MiB.stream.pipeThrough<Uint8Array>(
        new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
      ),
    ).arrayBuffer(),
  );
  assert.ok(compressed.length < MiB);
  const gzip = { "content-encoding": "gzip" };
  await withServer(() => new Response(compressed, { headers: gzip }), async (url) => {
    assert.equal((await failure(url, { maxBodyBytes: MiB })).code, "body-too-large");
    const whole = await send(get(url), { timeoutMs: 10_000, maxBodyBytes: 64 * MiB });
    assert.equal(whole.text.length, 64 * MiB);
  });
});

Deno.test("send stops an endless chunked body at the default cap", async () => {
  const body = zeros(Number.MAX_SAFE_INTEGER, 16 * 1024);
  await withServer(() => new Response(body.stream), async (url) => {
    const error = await failure(url);
    assert.equal(error.code, "body-too-large");
    assert.match(error.message, /^The response body is larger than 10 MiB \(the cap\);/);
  });
  assert.ok(body.pulled() < 2000, `read ${body.pulled()} chunks of 16 KiB`);
});

Deno.test("send decodes invalid UTF-8 as replacement characters instead of failing", async () => {
  const bytes = new Uint8Array([0x6f, 0x6b, 0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]);
  await withServer(() => new Response(bytes), async (url) => {
    const response = await send(get(url), { timeoutMs: 10_000 });
    assert.equal(response.text, "ok\ufffd\ufffd\ufffd(\ufffd");
  });
});

Deno.test("send decodes a multi-byte character split across chunks", async () => {
  const euro = new TextEncoder().encode("€"); // 3 bytes
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < euro.length) controller.enqueue(euro.subarray(i, ++i));
      else controller.close();
    },
  });
  await withServer(() => new Response(stream), async (url) => {
    assert.equal((await send(get(url), { timeoutMs: 10_000 })).text, "€");
  });
});

Deno.test("send still times out on a body that trickles in under the cap", async () => {
  let ticks = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (ticks++ > 100) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.enqueue(new Uint8Array(1));
    },
    cancel() {
      ticks = 1000;
    },
  });
  await withServer(() => new Response(stream), async (url) => {
    const error = await failure(url, { timeoutMs: 300 });
    assert.equal(error.code, "timeout");
    assert.equal(error.message, "No complete response within 300 ms.");
  });
});
