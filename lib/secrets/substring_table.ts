/**
 * A set of strings kept as their length and a 64-bit hash, asked about any
 * stretch of a text without slicing it.
 *
 * The redactor holds every form of every secret of a run (about twenty
 * literals and beginnings per token; the pieces are in `piece_set.ts`): as
 * strings in maps, sets and a prefix trie they took 6.5 KiB per token, the
 * largest thing a long suite kept alive. Here an entry is two numbers in one
 * typed array (about 16 bytes with the free slots), and a lookup hashes the
 * stretch in place.
 *
 * Two polynomial hashes modulo 2³² (with different odd bases), each mixed
 * with the length and 59 bits of them kept, make a collision of two distinct
 * strings vanishingly rare, and a collision could only ever mask too much: a
 * registered string always finds its own entry, so a secret is never missed.
 *
 * @module
 */
import { BASE1 as B1, BASE2 as B2, hash1, hash2, hashRange } from "./_index_layout.ts";

// Local constants for the lookups' loops: an imported binding is read through its module.
const BASE1 = B1;
const BASE2 = B2;

/** Flags are kept in the low bits of an entry's words; a looked-up word has the length above them. */
const FLAG_BITS = 4;
const FLAG_MASK = (1 << FLAG_BITS) - 1;
/** Set in every used slot's second word, so a used slot is never 0 (free). */
const USED = 1 << FLAG_BITS;
/** The bits of the second word that hold the hash. */
const HASH_BITS = ~(USED | FLAG_MASK);
/** Longest stretch an entry can hold: a looked-up word must stay a positive 32-bit integer. */
const MAX_LENGTH = 2 ** (31 - FLAG_BITS) - 1;
/**
 * Numbers per slot: the first hash, then the second hash's high bits with the
 * used bit and the flags. The length is mixed into both hashes rather than
 * kept: two words a slot instead of three, a third less memory.
 */
const STRIDE = 2;

/** The length mixed into the first and the second hash: keys of different lengths differ. */
const mix1 = (h: number, length: number) => h ^ Math.imul(length, 0x9e3779b1);
const mix2 = (h: number, length: number) => (h ^ Math.imul(length, 0x85ebca6b)) & HASH_BITS;

/**
 * The length of the entry a {@linkcode SubstringTable.longestAt} word names.
 *
 * @example
 * ```ts
 * import { entryLength, SubstringTable } from "./substring_table.ts";
 * const table = new SubstringTable();
 * table.add("secret", 0, 6, 1);
 * if (entryLength(table.longestAt("a secret", 2, [6], 1)) !== 6) throw new Error();
 * ```
 */
export function entryLength(word: number): number {
  return word >>> FLAG_BITS;
}

/**
 * Strings (as length and hash) each with up to four flag bits; open
 * addressing over one typed array, doubled at two-thirds full.
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
  /** Slot i is at 2i: the first key, then the second key with `USED` and the flags (0: free). */
  #slots = new Int32Array(64 * STRIDE);
  #capacity = 64;
  /** 32 minus log2 of the capacity: how far a slot's hash is shifted. */
  #shift = 26;
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
    if (length > MAX_LENGTH) throw new RangeError(`Longer than ${MAX_LENGTH} units.`);
    if ((this.#count + 1) * 3 > this.#capacity * 2) this.#grow();
    hashRange(text, at, length);
    return this.#put(mix1(hash1, length), mix2(hash2, length), flags);
  }

  /** Stores `flags` under the keys; the flags the entry had before (0 when new). */
  #put(k1: number, k2: number, flags: number): number {
    const slot = this.#find(k1, k2);
    const word = this.#slots[slot + 1];
    if (word === 0) {
      this.#slots[slot] = k1;
      this.#slots[slot + 1] = k2 | USED | (flags & FLAG_MASK);
      this.#count++;
      return 0;
    }
    this.#slots[slot + 1] = word | (flags & FLAG_MASK);
    return word & FLAG_MASK;
  }

  /** The flags of the entry for the `length` units of `text` at `at`, 0 when none. */
  flagsAt(text: string, at: number, length: number): number {
    if (at + length > text.length || length > MAX_LENGTH) return 0;
    hashRange(text, at, length);
    return this.#slots[this.#find(mix1(hash1, length), mix2(hash2, length)) + 1] &
      FLAG_MASK;
  }

  /**
   * Of the stretches of `text` starting at `at` with one of `lengths`
   * (ascending), the longest whose entry has a flag of `mask`: its word
   * (flags in the low bits, see {@linkcode entryLength}), or 0. Hashes each unit once, however many
   * lengths are asked.
   */
  longestAt(text: string, at: number, lengths: readonly number[], mask: number): number {
    let found = 0;
    let x = 0;
    let y = 0;
    let i = at;
    for (const length of lengths) {
      if (at + length > text.length || length > MAX_LENGTH) break;
      for (; i < at + length; i++) {
        const c = text.charCodeAt(i);
        x = (Math.imul(x, BASE1) + c) | 0;
        y = (Math.imul(y, BASE2) + c) | 0;
      }
      const flags = this.#slots[this.#find(mix1(x, length), mix2(y, length)) + 1] & FLAG_MASK;
      if ((flags & mask) !== 0) found = length * (1 << FLAG_BITS) + flags;
    }
    return found;
  }

  /** Where the entry's slot starts, or the free slot's where it would go. */
  #find(k1: number, k2: number): number {
    const slots = this.#slots;
    const mask = this.#capacity - 1;
    // The top bits of k1 times the golden ratio: a polynomial hash's low bits depend only on
    // the units' low bits (hex tokens share theirs), which made long probe runs.
    let slot = Math.imul(k1, 0x9e3779b1) >>> this.#shift;
    for (;;) {
      const at = slot * STRIDE;
      const word = slots[at + 1];
      if (word === 0) return at;
      if ((word & HASH_BITS) === k2 && slots[at] === k1) return at;
      slot = (slot + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#capacity *= 2;
    this.#shift--;
    this.#slots = new Int32Array(this.#capacity * STRIDE);
    for (let at = 0; at < old.length; at += STRIDE) {
      const word = old[at + 1];
      if (word === 0) continue;
      const slot = this.#find(old[at], word & HASH_BITS);
      this.#slots[slot] = old[at];
      this.#slots[slot + 1] = word;
    }
  }
}
