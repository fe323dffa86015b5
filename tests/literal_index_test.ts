/**
 * The literal index gives the longest literal at a position exactly as a
 * scan of every literal does, for literals that share long beginnings (the
 * case that made masking quadratic), and a lookup stays short however many
 * share one.
 */
import assert from "node:assert/strict";
import { LiteralIndex } from "../lib/secrets/literal_index.ts";

function naive(literals: readonly string[], text: string, at: number): string | undefined {
  let best: string | undefined;
  for (const l of literals) {
    if (text.startsWith(l, at) && (best === undefined || l.length > best.length)) best = l;
  }
  return best;
}

Deno.test("the longest literal at every position, as a scan of all of them finds it", () => {
  let seed = 11;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const alphabet = "ab";
  const word = (n: number) => Array.from({ length: n }, () => alphabet[rnd(2)]).join("");
  const prefixes = ["Bearer tok_", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.", "", "abab"];
  for (let round = 0; round < 30; round++) {
    const index = new LiteralIndex();
    const literals: string[] = [];
    const count = 1 + rnd(300);
    for (let i = 0; i < count; i++) {
      const literal = prefixes[rnd(prefixes.length)] + word(rnd(40));
      if (literal.length < 4 || literals.includes(literal)) continue;
      literals.push(literal);
      index.add(literal);
    }
    const text = Array.from(
      { length: 40 },
      () => rnd(2) ? literals[rnd(literals.length)].slice(0, 1 + rnd(60)) : word(rnd(10)),
    ).join("");
    for (let at = 0; at < text.length; at++) {
      assert.equal(index.longestAt(text, at), naive(literals, text, at), `round ${round} at ${at}`);
    }
  }
});

Deno.test("ten thousand tokens behind one prefix: a lookup reads a few short lists", () => {
  const index = new LiteralIndex();
  const tokens = Array.from({ length: 10_000 }, (_, i) => `Bearer tok_${i.toString(36)}_x9`);
  for (const t of tokens) index.add(t);
  const text = tokens.filter((_, i) => i % 97 === 0).join(" ");
  let compared = 0;
  const original = String.prototype.startsWith;
  // Counts the comparisons a lookup makes: the old single list compared against thousands.
  String.prototype.startsWith = function (this: string, s: string, at?: number) {
    compared++;
    return original.call(this, s, at);
  };
  try {
    for (const t of tokens.filter((_, i) => i % 97 === 0)) {
      const at = text.indexOf(t);
      assert.equal(index.longestAt(text, at), t);
    }
  } finally {
    String.prototype.startsWith = original;
  }
  assert.ok(compared < 104 * 20, `${compared} comparisons for 104 lookups`);
});
