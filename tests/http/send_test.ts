import assert from "node:assert/strict";
import {
  DEFAULT_MAX_BODY_BYTES,
  formatBytes,
  RequestError,
  type ResolvedRequest,
  send,
  type SendOptions,
} from "../../lib/http/mod.ts";

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
  // Counted, not timed (a busy machine is slow, not wrong): what the socket buffers hold is sent ahead, but only a few MB of 67.
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

// A request's deadline ends with the request: a timer left running kept the request's
// signals alive for the whole timeout (30 s of requests at a time in a suite), and then
// fired for nothing. `fetch` is wrapped only to see the signal it was given.
Deno.test("send leaves no timer or listener behind, however the request ends", async () => {
  const run = new AbortController();
  let listening = 0;
  const add = run.signal.addEventListener.bind(run.signal);
  const remove = run.signal.removeEventListener.bind(run.signal);
  run.signal.addEventListener = (type: string, ...rest: [EventListener]) => {
    if (type === "abort") listening++;
    add(type, ...rest);
  };
  run.signal.removeEventListener = (type: string, ...rest: [EventListener]) => {
    if (type === "abort") listening--;
    remove(type, ...rest);
  };
  const signals: AbortSignal[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if (init?.signal) signals.push(init.signal);
    return realFetch(input, init);
  };
  try {
    await withServer((request) => {
      if (new URL(request.url).pathname !== "/slow") return new Response("ok");
      return new Promise((resolve) => setTimeout(() => resolve(new Response("late")), 1000));
    }, async (url) => {
      const options = { timeoutMs: 300, signal: run.signal };
      assert.equal((await send(get(url), options)).text, "ok");
      assert.equal((await failure(`${url}slow`, options)).code, "timeout");
      assert.equal((await failure("http://127.0.0.1:1/", options)).code, "network");
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.equal(signals.length, 3);
  assert.deepEqual(signals.map((s) => s.aborted), [false, true, false], "no deadline fired late");
  assert.equal(listening, 0, "every request removed its listener");
});

const encoder = new TextEncoder();

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let rest = bytes; rest.length > 0;) rest = rest.subarray(await conn.write(rest));
}

/**
 * Answers one request on a raw TCP socket with `reply`, then closes it.
 * With `unread`, the request is left unread, so closing resets the connection.
 */
async function rawServer(
  reply: string | Uint8Array,
  body: (port: number) => Promise<void>,
  { unread = false } = {},
): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const serving = (async () => {
    const conn = await listener.accept();
    try {
      if (unread) await new Promise((resolve) => setTimeout(resolve, 50));
      else await conn.read(new Uint8Array(64 * 1024));
      await writeAll(conn, typeof reply === "string" ? encoder.encode(reply) : reply);
      if (unread) await new Promise((resolve) => setTimeout(resolve, 50));
    } catch {
      // The client may hang up first (a head too large): that is the point.
    } finally {
      conn.close();
    }
  })();
  try {
    await body(port);
  } finally {
    listener.close();
    await serving;
  }
}

/** Runtime wording that must never reach a person. */
const RAW =
  /fetch failed|client error|SendRequest|error sending request|parsed|os error|hyper|\(Connect\)|reading a body|gzip header|CRC|InvalidContentType|message head/i;

/** The message `send` fails with when a raw server answers `reply`. */
async function rawFailure(reply: string | Uint8Array, options = { unread: false }) {
  let message = "";
  await rawServer(reply, async (port) => {
    const error = await failure(`http://127.0.0.1:${port}/`);
    assert.equal(error.code, "network");
    message = error.message;
  }, options);
  assert.doesNotMatch(message, RAW);
  return message;
}

const OK_HEAD = "HTTP/1.1 200 OK\r\n";

function gzipped(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough<Uint8Array>(
    new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
  return new Response(stream).bytes();
}

function withHead(head: string, body: Uint8Array): Uint8Array {
  const bytes = encoder.encode(head);
  const out = new Uint8Array(bytes.length + body.length);
  out.set(bytes);
  out.set(body, bytes.length);
  return out;
}

Deno.test("send keeps headers named like object members, repeated ones joined, cookies apart", async () => {
  const head = "HTTP/1.1 200 OK\r\nconstructor: c-1\r\n__proto__: p-1\r\n__proto__: p-2\r\n" +
    "toString: t-1\r\nset-cookie: a=1; Path=/\r\nset-cookie: b=2\r\ncontent-length: 2\r\n\r\nok";
  await rawServer(head, async (port) => {
    const response = await send(get(`http://127.0.0.1:${port}/`), { timeoutMs: 10_000 });
    assert.equal(response.text, "ok");
    assert.equal(Object.getPrototypeOf(response.headers), Object.prototype);
    assert.equal(response.headers["constructor"], "c-1");
    assert.equal(response.headers["tostring"], "t-1");
    assert.equal(Object.getOwnPropertyDescriptor(response.headers, "__proto__")?.value, "p-1, p-2");
    assert.deepEqual(response.setCookies, ["a=1; Path=/", "b=2"]);
  });
  await withServer(() => new Response("{}"), async (url) => {
    assert.deepEqual((await send(get(url), { timeoutMs: 10_000 })).setCookies, []);
  });
});

Deno.test("send explains a response with more than 100 header lines in plain words", async () => {
  const lines = Array.from({ length: 101 }, (_, i) => `x-h${i}: v\r\n`).join("");
  assert.equal(
    await rawFailure(`${OK_HEAD}${lines}content-length: 0\r\n\r\n`),
    "Request failed: the response headers are too large to read (more than 100 header lines, " +
      "or a header block of several hundred kilobytes).",
  );
});

Deno.test("send reads a response with exactly 100 header lines", async () => {
  const lines = Array.from({ length: 99 }, (_, i) => `x-h${i}: v\r\n`).join("");
  await rawServer(`${OK_HEAD}${lines}content-length: 2\r\n\r\nok`, async (port) => {
    const response = await send(get(`http://127.0.0.1:${port}/`), { timeoutMs: 10_000 });
    assert.equal(response.text, "ok");
    assert.equal(response.headers["x-h98"], "v");
  });
});

Deno.test("send explains a header block of 2 MB in plain words", async () => {
  assert.equal(
    await rawFailure(`${OK_HEAD}x-big: ${"a".repeat(2_000_000)}\r\ncontent-length: 0\r\n\r\n`),
    "Request failed: the response headers are too large to read (more than 100 header lines, " +
      "or a header block of several hundred kilobytes).",
  );
});

Deno.test("send explains an invalid status code in plain words", async () => {
  assert.equal(
    await rawFailure("HTTP/1.1 abc OK\r\ncontent-length: 0\r\n\r\n"),
    "Request failed: the server's reply has no valid status code in its first line.",
  );
});

Deno.test("send explains a reply that is not HTTP in plain words", async () => {
  const message =
    "Request failed: the server did not reply with HTTP (its first line is not an HTTP status line).";
  assert.equal(await rawFailure("HTTX/9 200\r\n\r\n"), message);
  assert.equal(await rawFailure("SSH-2.0-OpenSSH_9.6\r\n"), message);
  assert.equal(await rawFailure("hello there\n"), message);
});

Deno.test("send explains invalid header bytes in plain words", async () => {
  const message = "Request failed: the server sent a malformed header line.";
  assert.equal(await rawFailure(`${OK_HEAD}x-a: b\x01c\r\ncontent-length: 0\r\n\r\n`), message);
  assert.equal(await rawFailure(`${OK_HEAD}x a: b\r\ncontent-length: 0\r\n\r\n`), message);
  assert.equal(await rawFailure(`${OK_HEAD}x-a: b\0c\r\ncontent-length: 0\r\n\r\n`), message);
});

Deno.test("send explains an invalid or conflicting content-length in plain words", async () => {
  const message =
    "Request failed: the server sent an invalid or conflicting content-length header.";
  assert.equal(await rawFailure(`${OK_HEAD}content-length: xyz\r\n\r\nabcd`), message);
  assert.equal(
    await rawFailure(`${OK_HEAD}content-length: 3\r\ncontent-length: 4\r\n\r\nabcd`),
    message,
  );
});

Deno.test("send explains a malformed or cut-off chunked body in plain words", async () => {
  const message = "Request failed: the server sent a malformed or cut-off chunked body.";
  const chunked = `${OK_HEAD}transfer-encoding: chunked\r\n\r\n`;
  assert.equal(await rawFailure(`${chunked}zz\r\nhello\r\n0\r\n\r\n`), message);
  assert.equal(await rawFailure(`${chunked}5\r\nhel`), message);
  assert.equal(await rawFailure(`${chunked}5\r\nhelloXX0\r\n\r\n`), message);
});

Deno.test("send explains a body shorter than its content-length in plain words", async () => {
  assert.equal(
    await rawFailure(`${OK_HEAD}content-length: 100\r\n\r\nshort`),
    "Request failed: the server closed the connection before the whole response arrived.",
  );
});

Deno.test("send explains a connection reset mid-body in plain words", async () => {
  assert.equal(
    await rawFailure(`${OK_HEAD}content-length: 1000\r\n\r\nabc`, { unread: true }),
    "Request failed: the server closed the connection before the whole response arrived.",
  );
});

Deno.test("send explains a connection closed or reset before any reply in plain words", async () => {
  const message = "Request failed: the server closed the connection without sending a response.";
  assert.equal(await rawFailure(""), message);
  assert.equal(await rawFailure("", { unread: true }), message);
});

Deno.test("send explains corrupt gzip and brotli bodies in plain words", async () => {
  const good = await gzipped("hello world, hello world");
  const corrupt = good.slice();
  corrupt[12] ^= 0xff;
  corrupt[14] ^= 0x55;
  const badCrc = good.slice();
  badCrc[badCrc.length - 6] ^= 0xff;
  const cases: [encoding: string, body: Uint8Array][] = [
    ["gzip", encoder.encode("\x1f\x8b\x08\x00garbage, not deflate")],
    ["gzip", encoder.encode("not gzip at all")],
    ["gzip", corrupt],
    ["gzip", badCrc],
    ["gzip", good.slice(0, good.length - 5)],
    ["br", encoder.encode("not brotli!")],
  ];
  for (const [encoding, body] of cases) {
    const head =
      `${OK_HEAD}content-encoding: ${encoding}\r\ncontent-length: ${body.length}\r\n\r\n`;
    assert.equal(
      await rawFailure(withHead(head, body)),
      `Request failed: the body could not be decompressed: its content-encoding is "${encoding}", ` +
        "but the data is corrupt or cut short.",
    );
  }
  await rawServer(
    withHead(`${OK_HEAD}content-encoding: gzip\r\ncontent-length: ${good.length}\r\n\r\n`, good),
    async (port) => {
      const response = await send(get(`http://127.0.0.1:${port}/`), { timeoutMs: 10_000 });
      assert.equal(response.text, "hello world, hello world");
    },
  );
});

Deno.test("send explains https to a plain http port in plain words", async () => {
  await rawServer("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n", async (port) => {
    const error = await failure(`https://127.0.0.1:${port}/`);
    assert.equal(error.code, "network");
    assert.equal(
      error.message,
      "Request failed: the server does not speak TLS on that port (use http:// if it serves plain HTTP).",
    );
    assert.doesNotMatch(error.message, RAW);
  });
});

Deno.test("send explains a refused connection in plain words", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const error = await failure(`http://127.0.0.1:${port}/`);
  assert.equal(error.code, "network");
  assert.equal(error.message, "Request failed: connection refused.");
});

Deno.test("send explains a host that does not resolve in plain words", async () => {
  const error = await failure("http://no-such-host.invalid/");
  assert.equal(error.code, "network");
  assert.equal(error.message, "Request failed: could not resolve the host.");
  assert.doesNotMatch(error.message, RAW);
});

Deno.test("a redirect hook's own failure ends the send as itself, not as a network error", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(null, { status: 302, headers: { location: "/next" } }),
  );
  class HopError extends Error {}
  let waited = false;
  try {
    await assert.rejects(
      send({ method: "GET", url: `http://127.0.0.1:${server.addr.port}/`, headers: [] }, {
        timeoutMs: 5000,
        followRedirects: true,
        // The hop waits for an async hook (credentials signed anew), and its failure is the caller's.
        onRedirect: async () => {
          await new Promise((r) => setTimeout(r, 10));
          waited = true;
          throw new HopError("no credentials for the hop");
        },
      }),
      (error) => error instanceof HopError && error.message === "no credentials for the hop",
    );
    assert.ok(waited);
  } finally {
    await server.shutdown();
  }
});
