/**
 * Writing artifacts: regular files are replaced atomically, everything else
 * (devices, FIFOs, symlinks, standard streams) is written through and never
 * replaced, on real full and read-only file systems where the machine allows
 * mounting them.
 */
import assert from "node:assert/strict";
import { ArtifactWriteError } from "../../lib/io/artifact_error.ts";
import { ensureWritable } from "../../lib/io/preflight.ts";
import { openStreamWriter } from "../../lib/io/stream_writer.ts";
import { writeFileAtomic } from "../../lib/io/write.ts";
import { UsageError } from "../../lib/model/errors.ts";
import {
  canMount,
  isLinux,
  isRoot,
  mountTmpfs,
  names,
  sha256,
  tempDir,
  unmount,
  whyNoMount,
} from "../support/fs.ts";

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
    const io = new URL("../../lib/io/mod.ts", import.meta.url).href;
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

/**
 * Writes `text` atomically, trying again (at most 50 times, 100 ms apart) while the file system
 * is still full; each failed try must leave nothing behind. Fails naming what the mount holds.
 */
async function writeOnceFreed(path: string, text: string): Promise<void> {
  const folder = path.slice(0, path.lastIndexOf("/"));
  for (let tries = 1;; tries++) {
    const error = await writeFileAtomic(path, text).then(() => undefined, (e) => e);
    if (!error) return;
    assert.ok(error instanceof ArtifactWriteError && error.code === "disk-full", String(error));
    assert.deepEqual(await names(folder), ["junit.xml"], "a failed try left a file behind");
    if (tries === 50) {
      const df = await new Deno.Command("df", { args: ["-k", folder] }).output();
      assert.fail(`Still full after ${tries} tries: ${new TextDecoder().decode(df.stdout)}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

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

      // What fits is still written, once the kernel has the failed files' pages back: on a busy
      // machine another process (a scan of /tmp) can hold a removed file open for a moment.
      await writeOnceFreed(`${tiny}/small.json`, "{}\n");
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
