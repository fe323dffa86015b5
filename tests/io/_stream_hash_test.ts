/** A stream's SHA-256 is right whichever hasher it ends with. */
import assert from "node:assert/strict";
import { StreamHash } from "../../lib/io/_stream_hash.ts";
import { sha256 } from "../support/fs.ts";

Deno.test("the hash is of every byte added, below and past the 1 MiB switch, and copies what it keeps", async () => {
  for (
    const sizes of [[], [3], [512 * 1024, 512 * 1024], [512 * 1024, 512 * 1024, 1], [3_000_000]]
  ) {
    const hash = new StreamHash();
    const reused = new Uint8Array(Math.max(0, ...sizes));
    for (const [i, size] of sizes.entries()) {
      const bytes = reused.subarray(0, size).fill(i + 1);
      await hash.update(bytes);
    }
    const expected = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
    let at = 0;
    for (const [i, size] of sizes.entries()) expected.fill(i + 1, at, at += size);
    assert.equal(await hash.hex(), sha256(expected), `sizes ${sizes.join()}`);
  }
});
