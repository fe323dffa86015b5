/**
 * The read stage: a flow file's bytes and text, or its one problem at 1:1
 * with the hint the caller gives: unreadable, not UTF-8, too large, or not a
 * regular file.
 */
import assert from "node:assert/strict";
import { readFlowFile } from "../../lib/load/set_read.ts";
import { MAX_FILE_BYTES } from "../../lib/model/limits.ts";

Deno.test("a flow file's bytes and text, or its one problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-read-" });
  try {
    await Deno.writeTextFile(`${dir}/ok.yaml`, "name: é\n");
    const ok = readFlowFile(`${dir}/ok.yaml`, "hint");
    assert.ok(!("problem" in ok));
    assert.equal(ok.text, "name: é\n");
    assert.equal(ok.bytes.length, 9);

    await Deno.writeFile(`${dir}/latin1.yaml`, new Uint8Array([0x6e, 0x3a, 0x20, 0xe9, 0x0a]));
    const latin1 = readFlowFile(`${dir}/latin1.yaml`, "Check the encoding.");
    assert.ok("problem" in latin1);
    assert.deepEqual(
      [latin1.problem.line, latin1.problem.column, latin1.problem.hint],
      [1, 1, "Check the encoding."],
    );

    const missing = readFlowFile(`${dir}/missing.yaml`, "Check the path.");
    assert.ok("problem" in missing);
    assert.match(missing.problem.message, /^Could not read the flow file: /);

    await Deno.writeFile(`${dir}/big.yaml`, new Uint8Array(MAX_FILE_BYTES + 1).fill(0x20));
    const big = readFlowFile(`${dir}/big.yaml`, "hint");
    assert.ok("problem" in big);
    assert.equal(big.problem.code, "file-too-large");

    const folder = readFlowFile(dir, "hint");
    assert.ok("problem" in folder, "a folder is no flow file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
