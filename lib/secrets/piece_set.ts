/**
 * The pieces of long secrets (every stretch of 16 units), as one 32-bit
 * word each.
 *
 * Pieces are most of what the redactor keeps: a 64-digit token has 49 of
 * them and about ten other entries. In the substring table an entry is two
 * words with its length and flags; all pieces have one length and one flag,
 * so here a piece is a single word, the two hashes of its units mixed. A
 * run of 10,000 tokens kept one 8 MiB table in each thread, 12 while it
 * doubled; now pieces and literals take 4 MiB each and double apart (at
 * most 6 at once), and the run's peak fell 3–10 MiB.
 *
 * Two distinct stretches share a word with odds of about one in 2³² per
 * lookup, and a shared word could only mask too much: a piece added is
 * always found.
 *
 * @module
 */
import { BASE1 as B1, BASE2 as B2, eachStretch } from "./_index_layout.ts";

// Local constants for the lookup's loop: an imported binding is read through its module.
const BASE1 = B1;
const BASE2 = B2;

/** A piece's word: never 0, which marks a free slot. */
function word(first: number, second: number): number {
  const w = (first ^ Math.imul(second ^ (second >>> 15), 0x2c1b3c6d)) | 0;
  return w === 0 ? 1 : w;
}

/**
 * Every stretch of one length of the strings added, asked about any stretch
 * of a text without slicing it; open addressing over one typed array,
 * doubled at two-thirds full.
 *
 * @example
 * ```ts
 * import { PieceSet } from "./piece_set.ts";
 * const pieces = new PieceSet(4);
 * pieces.addEach("secret");
 * if (!pieces.has("my cret!", 3) || pieces.has("my cret!", 2) || pieces.size !== 3) throw new Error();
 * ```
 */
export class PieceSet {
  /** The length of every piece, in UTF-16 units. */
  readonly length: number;
  #slots = new Int32Array(64);
  #capacity = 64;
  /** 32 minus log2 of the capacity: how far a word is shifted to find its slot. */
  #shift = 26;
  #count = 0;

  constructor(length: number) {
    if (!Number.isInteger(length) || length <= 0) throw new RangeError("No such length.");
    this.length = length;
  }

  /** Number of distinct pieces held. */
  get size(): number {
    return this.#count;
  }

  /** Adds every stretch of {@linkcode length} units of `text` (none when it is shorter). */
  addEach(text: string): void {
    eachStretch(text, this.length, (first, second) => {
      if ((this.#count + 1) * 3 > this.#capacity * 2) this.#grow();
      const w = word(first, second);
      const slot = this.#find(w);
      if (this.#slots[slot] !== 0) return;
      this.#slots[slot] = w;
      this.#count++;
    });
  }

  /** Whether the {@linkcode length} units of `text` at `at` are a piece. */
  has(text: string, at: number): boolean {
    const end = at + this.length;
    if (end > text.length) return false;
    // Hashed here rather than through `hashRange`: this is the scan's lookup at every
    // position its filters let through.
    let x = 0;
    let y = 0;
    for (let i = at; i < end; i++) {
      const c = text.charCodeAt(i);
      x = (Math.imul(x, BASE1) + c) | 0;
      y = (Math.imul(y, BASE2) + c) | 0;
    }
    return this.#slots[this.#find(word(x, y))] !== 0;
  }

  /** The slot holding `w`, or the free slot where it would go. */
  #find(w: number): number {
    const slots = this.#slots;
    const mask = this.#capacity - 1;
    // The top bits of the word times the golden ratio: the word's low bits alone cluster.
    let slot = Math.imul(w, 0x9e3779b1) >>> this.#shift;
    for (;;) {
      const at = slots[slot];
      if (at === 0 || at === w) return slot;
      slot = (slot + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#capacity *= 2;
    this.#shift--;
    this.#slots = new Int32Array(this.#capacity);
    for (const w of old) if (w !== 0) this.#slots[this.#find(w)] = w;
  }
}
