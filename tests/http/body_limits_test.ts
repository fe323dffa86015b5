/**
 * Response bodies cost what the limits say and no more: a compression bomb
 * or an endless body stops as soon as it passes `--max-body` (in time and in
 * memory), a body too large to hold is kept in a temporary file rather than
 * in memory, and a signal ends a run whatever body it is reading.
 *
 * The CLI runs as a child process against servers started here; its peak
 * memory is read from `/proc/<pid>/status` (VmHWM) while it runs.
 */
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { spawnCli } from "../support/cli.ts";
import { type RequestError, send } from "../../lib/http/mod.ts";

const MiB = 1024 * 1024;
const decoder = new TextDecoder();

/** `count` chunks of `chunk` (endless when `count` is Infinity), pulled as the client reads. */
function repeated(
  chunk: Uint8Array<ArrayBuffer>,
  count: number,
  delayMs = 0,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let sent = 0;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      if (sent++ >= count) return controller.close();
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      controller.enqueue(chunk);
    },
  });
}

const zeros = new Uint8Array(MiB);
// Brotli squeezes 64 MiB of zeros into a few bytes; quality 4 keeps making it quick.
const brotliBomb = new Uint8Array(zlib.brotliCompressSync(new Uint8Array(64 * MiB), {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
}));

/** Lines of `/slow` sent so far, in every test of this file. */
let slowTicks = 0;

/** Routes: compression bombs, endless bodies, a slow endless one, and a large JSON body. */
function handler(request: Request): Response {
  const path = new URL(request.url).pathname;
  const compressed = (format: CompressionFormat, name: string) =>
    new Response(repeated(zeros, 1024).pipeThrough(new CompressionStream(format)), {
      headers: { "content-encoding": name, "content-type": "application/json" },
    });
  switch (path) {
    case "/gzip":
      return compressed("gzip", "gzip");
    case "/deflate":
      return compressed("deflate", "deflate");
    case "/br":
      return new Response(brotliBomb, {
        headers: { "content-encoding": "br", "content-type": "application/json" },
      });
    case "/json20":
      return Response.json({ pad: "b".repeat(20 * MiB) });
    case "/endless":
      return new Response(repeated(new Uint8Array(64 * 1024).fill(97), Infinity));
    case "/slow":
      return new Response(
        repeated(new TextEncoder().encode("tick\n"), Infinity, 50).pipeThrough(
          new TransformStream({
            transform(chunk, controller) {
              slowTicks++;
              controller.enqueue(chunk);
            },
          }),
        ),
      );
    case "/large": {
      // {"pad": "aaa…"}: 400 MiB of JSON, streamed.
      const body = repeated(new Uint8Array(MiB).fill(97), 400);
      const open = new TextEncoder().encode('{"pad": "');
      const close = new TextEncoder().encode('"}');
      let part = 0;
      const reader = body.getReader();
      return new Response(
        new ReadableStream<Uint8Array<ArrayBuffer>>({
          async pull(controller) {
            if (part === 0) {
              part = 1;
              return controller.enqueue(open);
            }
            const { done, value } = await reader.read();
            if (!done) return controller.enqueue(value);
            if (part === 1) {
              part = 2;
              controller.enqueue(close);
            }
            controller.close();
          },
        }),
        { headers: { "content-type": "application/json", "x-kind": "large" } },
      );
    }
    default:
      return Response.json({ ok: true });
  }
}

/** A run of the CLI with its exit code, output, wall time and peak resident memory. */
interface Measured {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  peakBytes: number;
}

/** Runs the CLI, reading its VmHWM every few milliseconds until it exits. */
async function measured(args: string[], env: Record<string, string> = {}): Promise<Measured> {
  const started = performance.now();
  const child = spawnCli(args, { env });
  let peakBytes = 0;
  let exited = false;
  const status = child.output().finally(() => exited = true);
  while (!exited) {
    try {
      const text = await Deno.readTextFile(`/proc/${child.pid}/status`);
      const kb = Number(/VmHWM:\s*(\d+)/.exec(text)?.[1] ?? 0);
      peakBytes = Math.max(peakBytes, kb * 1024);
    } catch {
      // Gone between the check and the read.
    }
    await Promise.race([status, new Promise((r) => setTimeout(r, 20))]);
  }
  const out = await status;
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
    ms: performance.now() - started,
    peakBytes,
  };
}

async function withServer(
  body: (url: string, dir: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-body-" });
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, dir);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

function flow(name: string, url: string, extra = ""): string {
  return `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n${extra}`;
}

const TOO_LARGE =
  /The response body is larger than 10 MiB \(the cap\); raise it with --max-body or check the endpoint\./;

Deno.test("a compression bomb or an endless body stops at the cap at once, in bounded memory", async () => {
  await withServer(async (url, dir) => {
    const cases: [string, string[]][] = [
      ["gzip", []],
      ["br", []],
      ["endless", []],
      // The insecure client decodes with node's zlib, deflate included.
      ["gzip", ["--insecure"]],
      ["deflate", ["--insecure"]],
      ["br", ["--insecure"]],
    ];
    for (const [route, extra] of cases) {
      const label = `${route} ${extra.join(" ")}`;
      await Deno.writeTextFile(`${dir}/bomb.yaml`, flow("bomb", `${url}/${route}`));
      const run = await measured([
        "run",
        `${dir}/bomb.yaml`,
        ...extra,
        "--report-json",
        `${dir}/r.json`,
      ]);
      assert.equal(run.code, 1, `${label}: ${run.stderr}`);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      assert.match(report.flows[0].steps[0].message, TOO_LARGE, label);
      // Stopped at the cap, by its message and the memory held, not by a clock: an endless
      // body the cap missed would have the run read until its timeout.
      // A run holds about 60 MiB before any body; the cap adds 10 MiB, not 16 times that.
      assert.ok(
        run.peakBytes < 120 * MiB,
        `${label}: peak memory ${(run.peakBytes / MiB).toFixed(0)} MiB`,
      );
    }
  });
});

Deno.test("a body above what memory holds is kept in a temporary file; checks on the rest still run", async () => {
  await withServer(async (url, dir) => {
    const tmp = `${dir}/tmp`;
    await Deno.mkdir(tmp);
    await Deno.writeTextFile(
      `${dir}/large.yaml`,
      flow(
        "large",
        `${url}/large`,
        "    assert:\n      status: 200\n      json:\n        - {path: $.headers.x-kind, equals: large}\n" +
          "        - {path: $.json.pad, exists: true}\n" +
          "        - {xpath: //pad, exists: false}\n" +
          "    capture: {kind: {header: x-kind}}\n",
      ),
    );
    const run = await measured(
      ["run", `${dir}/large.yaml`, "--max-body", "1GiB", "--report-json", `${dir}/r.json`],
      { TMPDIR: tmp },
    );
    assert.equal(run.code, 1, run.stderr);
    const step = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows[0].steps[0];
    const results = step.assertions as { path: string; passed: boolean; message: string }[];
    const by = Object.fromEntries(results.map((r) => [r.path, r]));
    assert.deepEqual(
      results.map((r) => [r.path, r.passed]).sort(),
      [["$.headers.x-kind", true], ["$.json.pad", false], ["status", true], ["xpath //pad", false]],
      JSON.stringify(results),
    );
    assert.match(
      by["$.json.pad"].message,
      /^\$\.json\.pad: the response body is 400 MiB, more than the 64 MiB held in memory for checks/,
    );
    assert.match(by["$.json.pad"].message, /--max-body-memory/);
    // XPath (which would parse the body) is refused the same way, even `exists: false`.
    assert.match(by["xpath //pad"].message, /held in memory for checks/);
    assert.deepEqual(step.captures, ["kind"], "a header capture runs");
    assert.ok(
      run.peakBytes < 200 * MiB,
      `peak memory ${(run.peakBytes / MiB).toFixed(0)} MiB for a 400 MiB body`,
    );
    assert.deepEqual([...Deno.readDirSync(tmp)], [], "the temporary file is gone");
  });
});

Deno.test("SIGINT while a body streams slowly ends the run inside the read, reports written", async () => {
  await withServer(async (url, dir) => {
    await Deno.writeTextFile(`${dir}/slow.yaml`, flow("slow", `${url}/slow`));
    const child = spawnCli(["run", `${dir}/slow.yaml`, "--out-dir", `${dir}/out`], {
      stdout: "null",
    });
    // A handshake, not a delay: five lines of the endless body were sent, so the run is inside
    // the read (polled every 20 ms, at most a minute).
    const before = slowTicks;
    for (let i = 0; i < 3_000 && slowTicks < before + 5; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGINT");
    const { code, stderr } = await child.output();
    // The body never ends: a run that did not stop the read would end at its timeout, exit 1.
    assert.equal(code, 130, decoder.decode(stderr));
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.interrupted, "SIGINT");
    await Deno.stat(`${dir}/out/junit.xml`);
  });
});

Deno.test("--max-body-memory moves the threshold; a bad size is refused", async () => {
  await withServer(async (url, dir) => {
    await Deno.writeTextFile(
      `${dir}/mid.yaml`,
      flow(
        "mid",
        `${url}/json20`,
        "    assert:\n      status: 200\n      json:\n        - {path: $.json.pad, type: string}\n",
      ),
    );
    const low = await measured([
      "run",
      `${dir}/mid.yaml`,
      "--max-body",
      "64MiB",
      "--max-body-memory",
      "16MiB",
    ]);
    assert.equal(low.code, 1, low.stderr);
    assert.match(low.stdout, /the response body is 20 MiB, more than the 16 MiB held in memory/);
    assert.match(low.stdout, /--max-body-memory 16MiB/, "the reproduce command keeps the option");
    const high = await measured([
      "run",
      `${dir}/mid.yaml`,
      "--max-body",
      "64MiB",
      "--max-body-memory",
      "32MiB",
    ]);
    assert.equal(high.code, 0, high.stdout);
    for (const bad of ["1GiB", "12", "lots"]) {
      const refused = await measured(["run", `${dir}/mid.yaml`, `--max-body-memory=${bad}`]);
      assert.equal(refused.code, 2, bad);
      assert.match(refused.stderr, /^error\[bad-max-body-memory\]: .*from 1KiB to 500MiB/, bad);
    }
  });
});

Deno.test("send holds a body of exactly the memory threshold, spills one byte more, byte for byte", async () => {
  // Bytes that are not UTF-8 too: a spilled body is kept as sent, not as decoded.
  const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 0xc3) & 0xff);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      const n = Number(new URL(request.url).searchParams.get("n"));
      // Streamed, so no content-length: the body is read block by block.
      return new Response(repeated(bytes(n), 1));
    },
  );
  const url = (n: number) => `http://127.0.0.1:${server.addr.port}/?n=${n}`;
  const get = (n: number) =>
    send({ method: "GET", url: url(n), headers: [] }, { timeoutMs: 5000, bodyMemoryBytes: 4096 });
  try {
    const held = await get(4096);
    assert.equal(held.spilled, undefined);
    assert.equal(held.text, new TextDecoder().decode(bytes(4096)));
    const over = await get(4097);
    assert.equal(over.spilled?.bytes, 4097);
    over.close();
    const spilled = await get(3 * MiB + 5);
    assert.ok(spilled.spilled, "a body past the threshold is spilled");
    assert.equal(spilled.text, "");
    assert.equal(spilled.spilled.bytes, 3 * MiB + 5);
    const back = new Uint8Array(spilled.spilled.bytes);
    let at = 0;
    for (const chunk of spilled.spilled.chunks()) {
      back.set(chunk, at);
      at += chunk.length;
    }
    assert.equal(at, 3 * MiB + 5);
    assert.deepEqual(back, bytes(3 * MiB + 5));
    assert.equal(spilled.json.ok, false);
    spilled.close();
  } finally {
    await server.shutdown();
  }
});

Deno.test("send refuses a body whose content-length is over the cap without reading it", async () => {
  let pulled = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(
        new ReadableStream<Uint8Array<ArrayBuffer>>({
          pull(controller) {
            if (pulled++ < 4096) controller.enqueue(new Uint8Array(64 * 1024));
            else controller.close();
          },
        }),
        { headers: { "content-length": String(256 * MiB) } },
      ),
  );
  try {
    await assert.rejects(
      send(
        { method: "GET", url: `http://127.0.0.1:${server.addr.port}/`, headers: [] },
        { timeoutMs: 5000, maxBodyBytes: MiB },
      ),
      (error: RequestError) => error.code === "body-too-large",
    );
    // Counted, not timed: the read stopped within the first megabyte of the 256 declared.
    assert.ok(pulled < 64, `the server produced ${pulled} chunks of 64 KiB`);
  } finally {
    await server.shutdown();
  }
});
