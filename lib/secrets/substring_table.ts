/**
 * A set of strings kept as their length and a 64-bit hash, asked about any
 * stretch of a text without slicing it.
 *
 * The redactor holds every form of every secret of a run (ten literals and
 * some forty 16-character pieces per token): as strings in maps, sets and a
 * prefix trie they took 6.5 KiB per token, the largest thing a long suite
 * kept alive. Here an entry is three numbers in typed arrays (about 24 bytes
 * with the free slots), and a lookup hashes the stretch in place.
 *
 * Two polynomial hashes modulo 2³² (with different odd bases) together with
 * the length make a collision of two distinct strings vanishingly rare, and a
 * collision could only ever mask too much: a registered string always finds
 * its own entry, so a secret is never missed.
 *
 * @module
 */

const BASE1 = 0x01000193;
const BASE2 = 0x5bd1e995;

/** The two hashes of the last `hashRange` call (no allocation per lookup). */
let hash1 = 0;
let hash2 = 0;

/** Hashes the `length` units of `text` at `at` into `hash1` and `hash2`. */
function hashRange(text: string, at: number, length: number): void {
  let x = 0;
  let y = 0;
  for (let i = at; i < at + length; i++) {
    const c = text.charCodeAt(i);
    x = (Math.imul(x, BASE1) + c) | 0;
    y = (Math.imul(y, BASE2) + c) | 0;
  }
  hash1 = x;
  hash2 = y;
}

/** Flags are kept in the low bits of an entry's word, the length above them. */
const FLAG_BITS = 4;
const FLAG_MASK = (1 << FLAG_BITS) - 1;

/**
 * Strings (as length and hash) each with up to four flag bits; open
 * addressing over typed arrays, doubled at two-thirds full.
 *
 * @example
 * ```ts
 * import { SubstringTable } from "./substring_table.ts";
 * const table = new SubstringTable();
 * table.add("token-123", 0, 9, 1);
 * table.add("token-123456", 0, 12, 2);
 * const text = "a token-123456 b";
 * if (table.flagsAt(text, 2, 9) !== 1 || table.flagsAt(text, 1, 9) !== 0) throw new Error();
 * if (table.longestAt(text, 2, [4, 9, 12], 3) !== 12 * 16 + 2) throw new Error();
 * if (table.longestAt(text, 2, [4, 9, 12], 1) !== 9 * 16 + 1) throw new Error();
 * ```
 */
export class SubstringTable {
  #first = new Int32Array(64);
  #second = new Int32Array(64);
  /** `length << FLAG_BITS | flags`; 0 marks a free slot (every entry has a length). */
  #words = new Uint32Array(64);
  #count = 0;

  /** Number of distinct strings held. */
  get size(): number {
    return this.#count;
  }

  /**
   * Adds the `length` units of `text` at `at` with `flags` (OR-ed into an
   * entry already there); returns the flags the entry had before (0 when it
   * is new).
   */
  add(text: string, at: number, length: number, flags: number): number {
    if (length <= 0 || at + length > text.length) throw new RangeError("No such stretch.");
    if ((this.#count + 1) * 3 > this.#words.length * 2) this.#grow();
    hashRange(text, at, length);
    const slot = this.#find(hash1, hash2, length);
    const word = this.#words[slot];
    if (word === 0) {
      this.#first[slot] = hash1;
      this.#second[slot] = hash2;
      this.#words[slot] = (length * (1 << FLAG_BITS)) + (flags & FLAG_MASK);
      this.#count++;
      return 0;
    }
    this.#words[slot] = word | (flags & FLAG_MASK);
    return word & FLAG_MASK;
  }

  /** The flags of the entry for the `length` units of `text` at `at`, 0 when none. */
  flagsAt(text: string, at: number, length: number): number {
    if (at + length > text.length) return 0;
    hashRange(text, at, length);
    return this.#words[this.#find(hash1, hash2, length)] & FLAG_MASK;
  }

  /**
   * Of the stretches of `text` starting at `at` with one of `lengths`
   * (ascending), the longest whose entry has a flag of `mask`: its length
   * times 16 plus its flags, or 0. Hashes each unit once, however many
   * lengths are asked.
   */
  longestAt(text: string, at: number, lengths: readonly number[], mask: number): number {
    let found = 0;
    let x = 0;
    let y = 0;
    let i = at;
    for (const length of lengths) {
      if (at + length > text.length) break;
      for (; i < at + length; i++) {
        const c = text.charCodeAt(i);
        x = (Math.imul(x, BASE1) + c) | 0;
        y = (Math.imul(y, BASE2) + c) | 0;
      }
      const word = this.#words[this.#find(x, y, length)];
      if ((word & mask) !== 0) found = word;
    }
    return found;
  }

  /** The slot holding the entry, or the free slot where it would go. */
  #find(h1: number, h2: number, length: number): number {
    const mask = this.#words.length - 1;
    const wanted = length * (1 << FLAG_BITS);
    let slot = (h1 ^ Math.imul(length, 0x9e3779b1)) & mask;
    for (;;) {
      const word = this.#words[slot];
      if (word === 0) return slot;
      if (
        word - (word & FLAG_MASK) === wanted && this.#first[slot] === h1 &&
        this.#second[slot] === h2
      ) return slot;
      slot = (slot + 1) & mask;
    }
  }

  #grow(): void {
    const first = this.#first;
    const second = this.#second;
    const words = this.#words;
    this.#first = new Int32Array(words.length * 2);
    this.#second = new Int32Array(words.length * 2);
    this.#words = new Uint32Array(words.length * 2);
    for (let i = 0; i < words.length; i++) {
      if (words[i] === 0) continue;
      const slot = this.#find(first[i], second[i], Math.floor(words[i] / (1 << FLAG_BITS)));
      this.#first[slot] = first[i];
      this.#second[slot] = second[i];
      this.#words[slot] = words[i];
    }
  }
}
