/** A stream opens a temporary file for a regular path and writes through anything else. */
import assert from "node:assert/strict";
import { openStreamOutput } from "../../lib/io/_stream_output.ts";
import { UNBOUNDED } from "../../lib/io/interrupt.ts";
import { isLinux, names, tempDir } from "../support/fs.ts";

Deno.test("a regular path gets a temporary file beside it, written without a bound", async () => {
  const dir = await tempDir();
  try {
    const bound = <T>(work: Promise<T>) => work;
    const out = await openStreamOutput(`${dir}/run.log`, bound);
    assert.ok(out.temp && out.sink === out.temp.file && out.through === undefined);
    assert.equal(out.bound, UNBOUNDED, "a temporary file's writes end");
    await out.temp.discard();
    assert.deepEqual(await names(dir), []);
    await assert.rejects(
      () => openStreamOutput(dir, bound),
      (e: unknown) => (e as { code?: string }).code === "EISDIR",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a device is written through within the bound it was given",
  ignore: !isLinux,
  async fn() {
    const bound = <T>(work: Promise<T>) => work;
    const out = await openStreamOutput("/dev/full", bound);
    assert.ok(out.through && out.sink === out.through && out.temp === undefined);
    assert.equal(out.bound, bound);
    out.through.close();
  },
});
