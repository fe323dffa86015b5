/**
 * Bytes set aside until needed, so a long run does not hold them in memory:
 * flows that wait for their turn, as their bytes and as checked
 * (`LoadFlowsOptions.spill`), and what a run keeps of flows that did not
 * pass (`RunOptions.spill`).
 * `byteSpill` in `lib/io/byte_spill.ts` keeps them in a temporary file.
 *
 * @module
 */

/**
 * Where bytes wait; `put` returns the function that reads them back.
 *
 * @example
 * ```ts
 * import type { ByteSpill } from "./spill.ts";
 * const memory: ByteSpill = { put: (bytes) => () => bytes };
 * const read = memory.put(new Uint8Array([1, 2]));
 * if (read()[1] !== 2) throw new Error();
 * ```
 */
export interface ByteSpill {
  /** Sets `bytes` aside; the returned function reads them back, as often as called. */
  put(bytes: Uint8Array): () => Uint8Array;
}
