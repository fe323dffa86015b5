/**
 * The piece set answers as a set of the pieces themselves: every stretch of
 * every string added is found wherever it occurs (a secret's piece is never
 * missed), others are not, across the doublings of ten thousand tokens.
 */
import assert from "node:assert/strict";
import { PieceSet } from "../../lib/secrets/piece_set.ts";

function random(seed: number) {
  return (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
}

Deno.test("every stretch added in one rolling pass is found, and only those", () => {
  const rnd = random(11);
  const unit = () => "aZ9€\u{1F600}-"[rnd(6)];
  for (let round = 0; round < 200; round++) {
    const text = Array.from({ length: rnd(80) }, unit).join("");
    const length = 1 + rnd(20);
    const pieces = new PieceSet(length);
    pieces.addEach(text);
    const expected = new Set<string>();
    for (let at = 0; at + length <= text.length; at++) expected.add(text.slice(at, at + length));
    assert.equal(pieces.size, expected.size);
    for (let at = 0; at + length <= text.length; at++) {
      assert.ok(pieces.has(text, at), `${JSON.stringify(text)} at ${at}`);
    }
    const other = Array.from({ length: 60 }, unit).join("");
    for (let at = 0; at + length <= other.length; at++) {
      assert.equal(pieces.has(other, at), expected.has(other.slice(at, at + length)));
    }
    assert.equal(pieces.has(text, text.length - length + 1), false);
  }
});

Deno.test("the pieces of ten thousand tokens are each found through every doubling, nothing else is", () => {
  const pieces = new PieceSet(16);
  const tokens = Array.from(
    { length: 10_000 },
    (_, i) =>
      `${(i * 2654435761 >>> 0).toString(16).padStart(8, "0")}${i.toString(16)}cafe${i * 7919}`,
  );
  for (const t of tokens) pieces.addEach(t);
  let count = 0;
  for (const t of tokens) {
    for (let i = 0; i + 16 <= t.length; i++) assert.ok(pieces.has(t, i), t);
    count += Math.max(0, t.length - 15);
    assert.equal(pieces.has(`${t}!`, t.length - 15), false);
    assert.equal(pieces.has(`x${t.slice(0, 15)}`, 0), false);
  }
  assert.ok(pieces.size > 80_000 && pieces.size <= count, String(pieces.size));
});

Deno.test("a piece length that is not a positive whole number is refused", () => {
  assert.throws(() => new PieceSet(0), RangeError);
  assert.throws(() => new PieceSet(1.5), RangeError);
});
