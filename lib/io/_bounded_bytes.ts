/**
 * The buffer a bounded read fills. Deno API family: none (the reader hands
 * it what `Deno.FsFile.read` gave).
 *
 * @module
 */
import { tooLarge } from "./input_error.ts";

/**
 * The bytes of a bounded read as they come: a buffer of the size `stat` gave
 * (so a held file costs exactly its length), then a one-byte probe that sees
 * the end, or that the file grew; past `limit` bytes the read is refused, so
 * a file that grows after its `stat` (or a `/proc` file that says it is
 * empty) still stops there.
 *
 * @example
 * ```ts
 * import { BoundedBytes } from "./_bounded_bytes.ts";
 * const source = [new Uint8Array([1, 2]), new Uint8Array([3])];
 * const got = new BoundedBytes("x", 2, 10);
 * for (let into = got.next(); ; into = got.next()) {
 *   const piece = source.shift();
 *   if (piece) into.set(piece.subarray(0, into.length));
 *   if (!got.took(into, piece ? Math.min(piece.length, into.length) : null)) break;
 * }
 * if (got.result().join() !== "1,2,3") throw new Error();
 * ```
 */
export class BoundedBytes {
  #bytes: Uint8Array<ArrayBuffer>;
  #n = 0;
  #probe = new Uint8Array(1);
  #path: string;
  #limit: number;

  /** Room for `size` bytes (what `stat` said), refusing past `limit`. */
  constructor(path: string, size: number, limit: number) {
    this.#path = path;
    this.#limit = limit;
    this.#bytes = new Uint8Array(Math.min(limit + 1, size === 0 ? 64 * 1024 : size));
  }

  /** Where the next read goes: the rest of the buffer, or the probe when it is full. */
  next(): Uint8Array {
    return this.#n < this.#bytes.length ? this.#bytes.subarray(this.#n) : this.#probe;
  }

  /** Counts what the last read into {@linkcode next} gave; false at the end of the file. */
  took(into: Uint8Array, got: number | null): boolean {
    if (got === null || got === 0) return false;
    if (into === this.#probe) {
      if (this.#n + 1 > this.#limit) throw tooLarge(this.#path, this.#limit);
      const more = new Uint8Array(Math.min(this.#limit + 1, Math.max(this.#n * 2, 64 * 1024)));
      more.set(this.#bytes);
      more[this.#n] = this.#probe[0];
      this.#bytes = more;
    }
    this.#n += got;
    if (this.#n > this.#limit) throw tooLarge(this.#path, this.#limit);
    return true;
  }

  /** Exactly the bytes read. */
  result(): Uint8Array<ArrayBuffer> {
    return this.#n === this.#bytes.length ? this.#bytes : this.#bytes.slice(0, this.#n);
  }
}
