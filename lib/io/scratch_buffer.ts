/**
 * One reused buffer for encoding and batching bytes, so writers of large
 * reports leave no spent buffers for the collector. Deno API family: none
 * (`TextEncoder`).
 *
 * @module
 */

/** Buffers up to this size are kept for reuse; a larger piece of work gets a buffer of its own. */
const REUSED_MAX = 1024 * 1024;

/**
 * One buffer, reused from call to call, for text encoded as UTF-8 or bytes
 * joined into one run: the bytes returned are valid until the next call.
 * Writers that encode or batch every piece of a large report would
 * otherwise leave their size in spent buffers for the collector.
 *
 * @example
 * ```ts
 * import { ScratchBuffer } from "./scratch_buffer.ts";
 * const buffer = new ScratchBuffer();
 * const a = buffer.encode("héllo");
 * if (a.length !== 6 || a[1] !== 0xc3) throw new Error();
 * if (new TextDecoder().decode(buffer.encode("x".repeat(70_000))).length !== 70_000) throw new Error();
 * const joined = buffer.join([new Uint8Array([1, 2]), new Uint8Array([3])], 3);
 * if (joined.join() !== "1,2,3") throw new Error();
 * ```
 */
export class ScratchBuffer {
  #bytes = new Uint8Array(0);
  #encoder = new TextEncoder();

  /** `text` as UTF-8. */
  encode(text: string): Uint8Array {
    // Three bytes per UTF-16 unit at most, so encodeInto never stops short.
    const bytes = this.#room(text.length * 3);
    if (!bytes) return this.#encoder.encode(text);
    const { written } = this.#encoder.encodeInto(text, bytes);
    return bytes.subarray(0, written);
  }

  /** `pieces`, `total` bytes in all, one after the other. */
  join(pieces: Iterable<Uint8Array>, total: number): Uint8Array {
    const bytes = (this.#room(total) ?? new Uint8Array(total)).subarray(0, total);
    let at = 0;
    for (const piece of pieces) {
      bytes.set(piece, at);
      at += piece.length;
    }
    return bytes;
  }

  /** The shared buffer with at least `size` bytes, or undefined past `REUSED_MAX`. */
  #room(size: number): Uint8Array | undefined {
    if (size > REUSED_MAX) return undefined;
    if (size > this.#bytes.length) {
      this.#bytes = new Uint8Array(
        Math.min(REUSED_MAX, Math.max(size, 64 * 1024, this.#bytes.length * 2)),
      );
    }
    return this.#bytes;
  }
}
