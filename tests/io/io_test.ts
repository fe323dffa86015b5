/**
 * Writing artifacts: regular files are replaced atomically, everything else
 * (devices, FIFOs, symlinks, standard streams) is written through and never
 * replaced; every failure is one ArtifactWriteError with a plain reason, on
 * real full and read-only file systems where the machine allows mounting them.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  ArtifactWriteError,
  byteSpill,
  ensureWritable,
  openStreamWriter,
  refuseInputsAsOutputs,
  writeFileAtomic,
} from "../../lib/io/io.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { eagerNodeImports } from "../support/imports.ts";

const isLinux = Deno.build.os === "linux";
const isRoot = Deno.uid?.() === 0;

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "flowrun-io-" });
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Mounts a tmpfs of `size` at a new folder of `dir`; undefined when not permitted here. */
async function mountTmpfs(dir: string, options: string): Promise<string | undefined> {
  if (!isLinux || !isRoot) return undefined;
  const at = `${dir}/mnt`;
  await Deno.mkdir(at);
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", options, "tmpfs", at],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  return mount?.success ? at : undefined;
}

async function unmount(at: string | undefined): Promise<void> {
  if (at) await new Deno.Command("umount", { args: [at] }).output();
}

// Probed once: the tests that need a mount say so in their names when they cannot have one.
const canMount = await (async () => {
  const dir = await tempDir();
  try {
    const at = await mountTmpfs(dir, "size=64k");
    await unmount(at);
    return at !== undefined;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
})();
const whyNoMount = canMount ? "" : " [ignored: mounting a tmpfs needs root on Linux]";

Deno.test("a regular file is replaced atomically, keeps its mode, and the bytes written are returned", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/report.json`;
    await Deno.writeTextFile(path, "old\n");
    if (Deno.build.os !== "windows") await Deno.chmod(path, 0o640);
    const bytes = await writeFileAtomic(path, "new ✓\n");
    assert.deepEqual(bytes, new TextEncoder().encode("new ✓\n"));
    assert.equal(sha256(bytes), sha256(await Deno.readFile(path)));
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640);
    const raw = new Uint8Array([0, 255, 10]);
    assert.equal(await writeFileAtomic(`${dir}/deep/er/raw.bin`, raw), raw);
    assert.deepEqual(await Deno.readFile(`${dir}/deep/er/raw.bin`), raw);
    assert.deepEqual(await names(dir), ["deep", "report.json"], "no temporary file left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a symlink is written through: the target changes, the link stays a link", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(`${dir}/real`);
    await Deno.writeTextFile(`${dir}/real/report.json`, "old\n");
    await Deno.symlink("real/report.json", `${dir}/relative.json`);
    await Deno.symlink(`${dir}/relative.json`, `${dir}/chain.json`);
    await Deno.symlink(`${dir}/real/missing.json`, `${dir}/dangling.json`);

    await writeFileAtomic(`${dir}/chain.json`, "one\n");
    assert.ok((await Deno.lstat(`${dir}/chain.json`)).isSymlink);
    assert.ok((await Deno.lstat(`${dir}/relative.json`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/real/report.json`), "one\n");

    const log = await openStreamWriter(`${dir}/relative.json`);
    await log.write("two\n");
    const summary = await log.close();
    assert.ok((await Deno.lstat(`${dir}/relative.json`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/real/report.json`), "two\n");
    assert.equal(summary.size, 4);

    // A dangling link gets its target created, and stays a link.
    await writeFileAtomic(`${dir}/dangling.json`, "three\n");
    assert.ok((await Deno.lstat(`${dir}/dangling.json`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/real/missing.json`), "three\n");
    await ensureWritable(`${dir}/chain.json`);
    assert.deepEqual(await names(`${dir}/real`), ["missing.json", "report.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "devices are written through, never replaced: /dev/null, a link to it, a device node",
  ignore: !isLinux,
  async fn() {
    const dir = await tempDir();
    try {
      await Deno.symlink("/dev/null", `${dir}/null-link`);
      for (const path of ["/dev/null", `${dir}/null-link`]) {
        await ensureWritable(path);
        await writeFileAtomic(path, "discarded\n");
        const log = await openStreamWriter(path);
        await log.write("discarded\n");
        await log.close();
      }
      assert.ok((await Deno.lstat(`${dir}/null-link`)).isSymlink);
      assert.ok((await Deno.stat("/dev/null")).isCharDevice);
      if (isRoot) {
        // The reported damage: as root, a device node became a regular file.
        const made = await new Deno.Command("mknod", { args: [`${dir}/null`, "c", "1", "3"] })
          .output().catch(() => undefined);
        if (made?.success) {
          await writeFileAtomic(`${dir}/null`, "x\n");
          const log = await openStreamWriter(`${dir}/null`);
          await log.write("x\n");
          await log.close();
          assert.ok((await Deno.lstat(`${dir}/null`)).isCharDevice, "still a device node");
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a FIFO is written through to its reader and stays a FIFO",
  ignore: !isLinux,
  async fn() {
    const dir = await tempDir();
    try {
      const fifo = `${dir}/pipe`;
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success);
      await ensureWritable(fifo); // Must not block waiting for a reader.
      for (
        const write of [
          () => writeFileAtomic(fifo, "report\n").then(() => {}),
          async () => {
            const log = await openStreamWriter(fifo);
            await log.write("line 1\n");
            await log.write("line 2\n");
            await log.close();
          },
        ]
      ) {
        const reader = new Deno.Command("cat", { args: [fifo], stdout: "piped" }).output();
        await write();
        const text = new TextDecoder().decode((await reader).stdout);
        assert.match(text, /^(report\n|line 1\nline 2\n)$/);
        assert.ok((await Deno.lstat(fifo)).isFifo, "still a FIFO");
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("/dev/stdout and /dev/stderr go to the process's streams, also through a symlink", async () => {
  const dir = await tempDir();
  try {
    const script = `${dir}/write.ts`;
    const io = new URL("../../lib/io/io.ts", import.meta.url).href;
    await Deno.symlink("/dev/stdout", `${dir}/out-link`);
    await Deno.writeTextFile(
      script,
      `import { openStreamWriter, writeFileAtomic } from "${io}";
await writeFileAtomic("/dev/stdout", "report\\n");
await writeFileAtomic(${JSON.stringify(`${dir}/out-link`)}, "linked\\n");
await writeFileAtomic("/dev/stderr", "to stderr\\n");
const log = await openStreamWriter("/dev/stdout");
await log.write("log\\n");
await log.close();
`,
    );
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    assert.equal(run.code, 0, decode(run.stderr));
    assert.equal(decode(run.stdout), "report\nlinked\nlog\n");
    assert.equal(decode(run.stderr), "to stderr\n");
    assert.ok((await Deno.lstat(`${dir}/out-link`)).isSymlink);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

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

Deno.test("io.ts imports no node: builtin up front (it starts Deno's Node layer)", async () => {
  assert.deepEqual(await eagerNodeImports(new URL("../../lib/io/io.ts", import.meta.url)), []);
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

Deno.test({
  name:
    "a full device: every write function fails with one disk-full sentence, the log never rejects",
  ignore: !isLinux,
  async fn() {
    await assert.rejects(
      () => writeFileAtomic("/dev/full", "{}\n"),
      (error: unknown) => {
        assert.ok(error instanceof ArtifactWriteError);
        assert.equal(error.code, "disk-full");
        assert.equal(error.errno, "ENOSPC");
        assert.equal(error.path, "/dev/full");
        assert.equal(error.reason, "No space left on device");
        assert.equal(error.message, 'Cannot write "/dev/full": No space left on device.');
        assert.equal(error.stack, `ArtifactWriteError: ${error.message}`, "no stack trace");
        return true;
      },
    );
    const log = await openStreamWriter("/dev/full");
    // Small lines are buffered: the failure shows when they are flushed, at the latest on close.
    for (let i = 0; i < 5000; i++) await log.write(`{"line":${i}}\n`);
    assert.equal(log.error?.code, "disk-full");
    await log.write("more\n"); // Still no rejection after the failure.
    const error = await log.close().catch((e) => e);
    assert.equal(error, log.error);
    assert.equal(await log.close().catch((e) => e), error);
  },
});

Deno.test({
  name:
    `a real full file system: the report fails, the old file and the folder stay clean${whyNoMount}`,
  ignore: !canMount,
  async fn() {
    const dir = await tempDir();
    const tiny = await mountTmpfs(dir, "size=64k");
    try {
      assert.ok(tiny);
      await Deno.writeTextFile(`${tiny}/junit.xml`, "previous\n");
      const big = "x".repeat(256 * 1024);
      const error = await writeFileAtomic(`${tiny}/junit.xml`, big).catch((e) => e);
      assert.ok(error instanceof ArtifactWriteError, String(error));
      assert.equal(error.message, `Cannot write "${tiny}/junit.xml": No space left on device.`);
      assert.equal(await Deno.readTextFile(`${tiny}/junit.xml`), "previous\n");

      const log = await openStreamWriter(`${tiny}/run.log`);
      for (let i = 0; i < 100; i++) await log.write(`${"y".repeat(4000)}\n`);
      assert.equal(log.error?.code, "disk-full");
      await assert.rejects(
        () => log.close(),
        /Cannot write ".*run\.log": No space left on device\./,
      );
      assert.deepEqual(await names(tiny), ["junit.xml"], "no temporary file left behind");

      // What fits is still written.
      await writeFileAtomic(`${tiny}/small.json`, "{}\n");
      assert.equal(await Deno.readTextFile(`${tiny}/small.json`), "{}\n");
    } finally {
      await unmount(tiny);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: `a read-only file system: read-only, and refused up front by ensureWritable${whyNoMount}`,
  ignore: !canMount,
  async fn() {
    const dir = await tempDir();
    const ro = await mountTmpfs(dir, "size=64k,ro");
    try {
      assert.ok(ro);
      const error = await writeFileAtomic(`${ro}/report.json`, "{}\n").catch((e) => e);
      assert.ok(error instanceof ArtifactWriteError);
      assert.equal(error.code, "read-only");
      assert.equal(error.message, `Cannot write "${ro}/report.json": Read-only file system.`);
      await assert.rejects(
        () => openStreamWriter(`${ro}/run.log`),
        (e: unknown) => e instanceof ArtifactWriteError && e.code === "read-only",
      );
      await assert.rejects(
        () => ensureWritable(`${ro}/sub/report.json`),
        (e: unknown) =>
          e instanceof UsageError && e.code === "unwritable" &&
          e.message === `Cannot write "${ro}/sub/report.json": Read-only file system.`,
      );
    } finally {
      await unmount(ro);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("system errors read as plain reasons with stable codes", () => {
  const cases: [string, string, string][] = [
    ["ENOSPC", "disk-full", "No space left on device"],
    ["EDQUOT", "disk-full", "Disk quota exceeded"],
    ["EACCES", "permission-denied", "Permission denied"],
    ["EROFS", "read-only", "Read-only file system"],
    ["ENOENT", "not-found", "No such file or directory"],
    ["EPIPE", "broken-pipe", "Broken pipe (nothing reads it any more)"],
  ];
  for (const [errno, code, reason] of cases) {
    const cause = Object.assign(new Error(`whatever (os error 1): write 'x'`), { code: errno });
    const error = ArtifactWriteError.from("out/r.json", cause);
    assert.deepEqual([error.code, error.reason, error.errno], [code, reason, errno]);
    assert.equal(error.cause, cause);
  }
  const odd = ArtifactWriteError.from("r.json", new Error("weird failure (os error 99): open 'x'"));
  assert.deepEqual([odd.code, odd.reason], ["write-failed", "Weird failure"]);
  const again = ArtifactWriteError.from("other.json", odd);
  assert.equal(again, odd, "an ArtifactWriteError is not wrapped twice");
});

Deno.test("writing a directory or through a symlink loop fails with a plain reason", async () => {
  const dir = await tempDir();
  try {
    await Deno.symlink(`${dir}/b`, `${dir}/a`);
    await Deno.symlink(`${dir}/a`, `${dir}/b`);
    const loop = await writeFileAtomic(`${dir}/a`, "x").catch((e) => e);
    assert.ok(loop instanceof ArtifactWriteError);
    assert.equal(loop.code, "symlink-loop");
    const folder = await writeFileAtomic(dir, "x").catch((e) => e);
    assert.ok(folder instanceof ArtifactWriteError);
    assert.equal(folder.message, `Cannot write "${dir}": It is a directory.`);
    await assert.rejects(() => openStreamWriter(dir), ArtifactWriteError);
    await assert.rejects(() => ensureWritable(`${dir}/a`), UsageError);
    assert.ok((await Deno.lstat(`${dir}/a`)).isSymlink, "the links are left alone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a report path that is a flow file is refused however it is spelled", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(`${dir}/flows`);
    const flow = `${dir}/flows/login.yaml`;
    await Deno.writeTextFile(flow, "name: login\n");
    await Deno.symlink(flow, `${dir}/alias.json`);
    await Deno.link(flow, `${dir}/hard.json`);
    for (
      const output of [
        flow,
        `${dir}/flows/../flows/login.yaml`,
        `${dir}/alias.json`,
        `${dir}/hard.json`,
      ]
    ) {
      await assert.rejects(
        () => refuseInputsAsOutputs([`${dir}/fine.json`, output], [flow]),
        (e: unknown) =>
          e instanceof UsageError && e.code === "unwritable" &&
          e.message === `Cannot write a report to "${output}": it is the flow file "${flow}".`,
      );
    }
    await Deno.writeTextFile(`${dir}/copy.json`, "name: login\n");
    await refuseInputsAsOutputs([`${dir}/copy.json`, `${dir}/new.json`, "/dev/null"], [flow]);
    assert.equal(await Deno.readTextFile(flow), "name: login\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("byteSpill gives back every piece, from disk past a batch, in any order", () => {
  const spill = byteSpill();
  try {
    const pieces: Uint8Array[] = [];
    const readers: (() => Uint8Array)[] = [];
    // About 1.2 MB in pieces of 0–4 KiB: several batches on disk and one still held.
    for (let i = 0; i < 600; i++) {
      const bytes = new Uint8Array((i * 37) % 4096).map((_, j) => (i + j) % 251);
      pieces.push(bytes);
      readers.push(spill.put(bytes));
    }
    const order = pieces.map((_, i) => (i * 263) % pieces.length);
    assert.equal(new Set(order).size, pieces.length);
    for (const i of order) assert.deepEqual(readers[i](), pieces[i], `piece ${i}`);
    // Read twice: a deferred flow may be parsed again for a report of a flow that was not run.
    assert.deepEqual(readers[599](), pieces[599]);
  } finally {
    spill.close();
  }
});
