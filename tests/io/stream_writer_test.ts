/**
 * The stream writer: lines in order under parallel writes, the file in place
 * only on close, and the SHA-256 of exactly what was written on both sides
 * of where it switches hashers.
 */
import assert from "node:assert/strict";
import { openStreamWriter } from "../../lib/io/stream_writer.ts";
import { names, sha256, tempDir } from "../support/fs.ts";

Deno.test("the stream writer keeps lines in order under parallel writes and hashes what it wrote", async () => {
  const dir = await tempDir();
  try {
    const log = await openStreamWriter(`${dir}/run.log`);
    const line = (i: number) => `${JSON.stringify({ i, pad: "x".repeat(i % 700) })}\n`;
    await Promise.all(Array.from({ length: 2000 }, (_, i) => log.write(line(i))));
    assert.deepEqual(await names(dir), [(await names(dir))[0]], "only the temporary file so far");
    assert.ok((await names(dir))[0].endsWith(".tmp"));
    const summary = await log.close();
    const bytes = await Deno.readFile(`${dir}/run.log`);
    const expected = Array.from({ length: 2000 }, (_, i) => line(i)).join("");
    assert.equal(new TextDecoder().decode(bytes), expected);
    assert.deepEqual(summary, {
      path: `${dir}/run.log`,
      size: bytes.length,
      sha256: sha256(bytes),
    });
    assert.equal(await log.close(), await log.close(), "closing again gives the same outcome");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a stream writer opened without hashing writes the same bytes and reports no hash", async () => {
  const dir = await tempDir();
  try {
    // Past the 1 MiB a hash keeps before it streams: the no-hash path must not lose that part.
    const line = (i: number) => `${JSON.stringify({ i, pad: "é".repeat(i % 900) })}\n`;
    const log = await openStreamWriter(`${dir}/report.json`, { hash: false });
    for (let i = 0; i < 2000; i++) await log.write(line(i));
    const summary = await log.close();
    const bytes = await Deno.readFile(`${dir}/report.json`);
    assert.ok(bytes.length > 1024 * 1024);
    assert.equal(
      new TextDecoder().decode(bytes),
      Array.from({ length: 2000 }, (_, i) => line(i)).join(""),
    );
    assert.deepEqual(summary, { path: `${dir}/report.json`, size: bytes.length });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the stream writer hashes right on both sides of where it switches hashers (1 MiB)", async () => {
  const dir = await tempDir();
  const KIB64 = 64 * 1024; // A write of this many characters is flushed as one chunk.
  const ascii = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i * 7 + seed) % 95))).join("");
  const cases: [name: string, writes: string[]][] = [
    ["nothing", []],
    ["one line", ["{}\n"]],
    ["one chunk short of the mark", Array.from({ length: 15 }, (_, i) => ascii(KIB64, i))],
    ["exactly at the mark", Array.from({ length: 16 }, (_, i) => ascii(KIB64, i))],
    ["one byte past it", [...Array.from({ length: 16 }, (_, i) => ascii(KIB64, i)), "x"]],
    // Multi-byte text in lines of many sizes, about 5 MB, crossing the mark mid-chunk.
    [
      "about 5 MB of lines",
      Array.from({ length: 20_000 }, (_, i) => `{"i":${i},"t":"${"é€😀x".repeat(i % 50)}"}\n`),
    ],
  ];
  try {
    for (const [name, writes] of cases) {
      const path = `${dir}/${name.replaceAll(" ", "-")}.log`;
      const log = await openStreamWriter(path);
      for (const text of writes) await log.write(text);
      const summary = await log.close();
      const bytes = await Deno.readFile(path);
      assert.equal(new TextDecoder().decode(bytes), writes.join(""), name);
      assert.deepEqual(summary, { path, size: bytes.length, sha256: sha256(bytes) }, name);
      const subtle = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      assert.equal(
        summary.sha256,
        Array.from(subtle, (b) => b.toString(16).padStart(2, "0")).join(""),
        name,
      );
      await Deno.remove(path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
