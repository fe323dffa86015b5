/** The rolling hashes of the redactor's index equal the hash computed afresh at each position. */
import assert from "node:assert/strict";
import {
  bit8,
  classOf,
  hash4,
  hash8,
  LENGTH_CLASSES,
  roll4,
  roll8,
  rollTo,
  STARTS8_BITS,
} from "../../lib/secrets/_index_layout.ts";

Deno.test("rolling four- and eight-unit hashes one unit on equals hashing afresh", () => {
  const text = "The quick brown fox ☃ jumps over 0123456789abcdef";
  let h4 = hash4(text, 0);
  let h8 = hash8(text, 0);
  for (let i = 1; i + 8 <= text.length; i++) {
    h4 = roll4(h4, text.charCodeAt(i + 3));
    h8 = roll8(h8, text.charCodeAt(i - 1), text.charCodeAt(i + 7));
    assert.equal(h4, hash4(text, i), `hash4 at ${i}`);
    assert.equal(h8, hash8(text, i), `hash8 at ${i}`);
    assert.equal(rollTo(hash8(text, 0), text, 0, i), hash8(text, i));
    assert.ok(bit8(h8) >= 0 && bit8(h8) < STARTS8_BITS);
  }
});

Deno.test("length classes double: 4–7, 8–15, …, 256 and up", () => {
  assert.deepEqual([4, 7, 8, 15, 16, 255, 256, 10_000].map(classOf), [0, 0, 1, 1, 2, 5, 6, 6]);
  assert.equal(LENGTH_CLASSES.length, 7);
});
