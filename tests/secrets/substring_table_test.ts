/**
 * The substring table answers exactly as a set of the strings themselves:
 * every string added is found at every place it occurs (a secret is never
 * missed), nothing else is, and the longest of several lengths wins, also
 * for thousands of strings sharing long beginnings (every flow's `Bearer …`,
 * every JWT's header), the case that once made masking quadratic.
 */
import assert from "node:assert/strict";
import { SubstringTable } from "../../lib/secrets/substring_table.ts";

function random(seed: number) {
  return (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
}

Deno.test("flags at every stretch of a text, as a set of the strings gives them", () => {
  const rnd = random(7);
  const word = (n: number) => Array.from({ length: n }, () => "ab€"[rnd(3)]).join("");
  const prefixes = ["Bearer tok_", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.", "", "abab"];
  for (let round = 0; round < 20; round++) {
    const table = new SubstringTable();
    const strings = new Map<string, number>();
    for (let i = 0, count = 1 + rnd(2000); i < count; i++) {
      const s = prefixes[rnd(prefixes.length)] + word(1 + rnd(30));
      const flag = 1 << rnd(3);
      assert.equal(table.add(s, 0, s.length, flag), strings.get(s) ?? 0);
      strings.set(s, (strings.get(s) ?? 0) | flag);
    }
    assert.equal(table.size, strings.size);
    const list = [...strings.keys()];
    const text = Array.from(
      { length: 30 },
      () => rnd(2) ? list[rnd(list.length)].slice(0, 1 + rnd(60)) : word(rnd(10)),
    ).join("");
    const lengths = [...new Set(list.map((s) => s.length))].sort((a, b) => a - b);
    for (let at = 0; at < text.length; at++) {
      let longest = 0;
      for (const length of lengths) {
        const flags = strings.get(text.slice(at, at + length)) ?? 0;
        if (at + length <= text.length) assert.equal(table.flagsAt(text, at, length), flags);
        if ((flags & 1) !== 0) longest = length * 16 + flags;
      }
      assert.equal(table.longestAt(text, at, lengths, 1), longest, `round ${round} at ${at}`);
    }
  }
});

Deno.test("a hundred thousand pieces of ten thousand tokens are each found, nothing else is", () => {
  const table = new SubstringTable();
  const tokens = Array.from(
    { length: 10_000 },
    (_, i) => `Bearer tok_${i.toString(36)}_${i * 7919}`,
  );
  for (const t of tokens) for (let i = 0; i + 16 <= t.length; i++) table.add(t, i, 16, 4);
  for (const t of tokens) {
    for (let i = 0; i + 16 <= t.length; i++) assert.equal(table.flagsAt(t, i, 16), 4, t);
    assert.equal(table.flagsAt(`${t}!`, t.length - 15, 16), 0);
  }
});

Deno.test("a stretch past the end of the text is never found", () => {
  const table = new SubstringTable();
  table.add("abcd", 0, 4, 1);
  assert.equal(table.flagsAt("xabc", 1, 4), 0);
  assert.equal(table.longestAt("xabc", 1, [4], 1), 0);
  assert.throws(() => table.add("abc", 0, 4, 1), RangeError);
});
