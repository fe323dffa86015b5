/**
 * Reads of inputs: exactly the bytes of a regular file within its limit,
 * the same from the synchronous and the asynchronous reader. (Hostile files
 * through the CLI are in file_inputs_test.ts.)
 */
import assert from "node:assert/strict";
import { InputFileError } from "../../lib/io/input_error.ts";
import { readBytes, readBytesSync, readText } from "../../lib/io/read.ts";
import { isLinux, tempDir } from "../support/fs.ts";

Deno.test("both readers give exactly the bytes, at the limit and past a growing buffer", async () => {
  const dir = await tempDir();
  try {
    const sizes = [0, 1, 64 * 1024, 64 * 1024 + 1, 300_000];
    for (const size of sizes) {
      const bytes = new Uint8Array(size).map((_, i) => i % 251);
      await Deno.writeFile(`${dir}/f`, bytes);
      assert.deepEqual(readBytesSync(`${dir}/f`), bytes, `sync ${size}`);
      assert.deepEqual(await readBytes(`${dir}/f`), bytes, `async ${size}`);
      assert.deepEqual(readBytesSync(`${dir}/f`, { limit: size }), bytes, `at the limit ${size}`);
    }
    await Deno.writeTextFile(`${dir}/t`, "é\uFFFD");
    assert.equal(await readText(`${dir}/t`), "é\uFFFD");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("past the limit, both readers refuse with the size stat gave", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(`${dir}/f`, "abcd");
    for (
      const read of [
        () => Promise.try(() => readBytesSync(`${dir}/f`, { limit: 3 })),
        () => readBytes(`${dir}/f`, { limit: 3 }),
      ]
    ) {
      const error = await read().catch((e) => e);
      assert.ok(error instanceof InputFileError);
      assert.equal(error.code, "input-too-large");
      assert.equal(error.size, 4);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a kernel file that says it is empty is refused before it is read",
  ignore: !isLinux,
  fn() {
    const error = (() => {
      try {
        readBytesSync("/proc/self/status");
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof InputFileError);
    assert.equal(error.message, "it is a kernel interface file, not a regular file");
  },
});
