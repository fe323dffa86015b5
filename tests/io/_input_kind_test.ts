/** What stat says decides, before any open, whether a path may be read as an input. */
import assert from "node:assert/strict";
import { checkInput } from "../../lib/io/_input_kind.ts";
import { InputFileError } from "../../lib/io/input_error.ts";
import { isLinux, tempDir } from "../support/fs.ts";

function reason(path: string, limit = 100): string | undefined {
  try {
    checkInput(path, Deno.statSync(path), limit);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof InputFileError);
    return `${error.code}: ${error.message}`;
  }
}

Deno.test("a regular file within its limit passes; a larger one does not", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(`${dir}/a`, "x".repeat(10));
    assert.equal(reason(`${dir}/a`), undefined);
    assert.equal(
      reason(`${dir}/a`, 9),
      "input-too-large: it is 10 bytes, more than the 9 bytes limit",
    );
    assert.equal(reason(dir), "not-a-regular-file: it is a directory, not a regular file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "devices, FIFOs and kernel files are named for what they are",
  ignore: !isLinux,
  async fn() {
    assert.equal(
      reason("/dev/null"),
      "not-a-regular-file: it is a character device, not a regular file",
    );
    assert.equal(
      reason("/proc/self/status"),
      "not-a-regular-file: it is a kernel interface file, not a regular file",
    );
    const dir = await tempDir();
    try {
      assert.ok((await new Deno.Command("mkfifo", { args: [`${dir}/p`] }).output()).success);
      assert.equal(
        reason(`${dir}/p`),
        "not-a-regular-file: it is a FIFO (named pipe), not a regular file",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
