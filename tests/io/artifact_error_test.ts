/**
 * Every failure to write an artifact is one ArtifactWriteError with a plain
 * reason and a stable code, without a stack trace.
 */
import assert from "node:assert/strict";
import { ArtifactWriteError } from "../../lib/io/artifact_error.ts";
import { ensureWritable } from "../../lib/io/preflight.ts";
import { openStreamWriter } from "../../lib/io/stream_writer.ts";
import { writeFileAtomic } from "../../lib/io/write.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { isLinux, tempDir } from "../support/fs.ts";

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
