import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { hex, hmacSha256, sha256 } from "../../lib/_util/sha256.ts";

Deno.test("sha256 and hmacSha256 agree with node:crypto at every padding boundary and key length", () => {
  for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 70_000]) {
    const data = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
    assert.equal(hex(sha256(data)), createHash("sha256").update(data).digest("hex"), `${n} bytes`);
    for (const length of [0, 1, 32, 64, 65, 200]) {
      const key = new Uint8Array(length).map((_, i) => 255 - i);
      assert.equal(
        hex(hmacSha256(key, data)),
        createHmac("sha256", key).update(data).digest("hex"),
        `${n} bytes, key of ${length}`,
      );
    }
  }
});
