/**
 * A gzip member (RFC 1952) whose deflate blocks are stored, not compressed
 * (RFC 1951's type 0): what `echo … | gzip | curl --data-binary @-` sends,
 * as far as any server reads it, made synchronously and the same bytes for
 * the same text in every version (the conversion is pure and byte-stable;
 * the platform's compressor is asynchronous and may change its output).
 *
 * @module
 */

/** Most bytes one stored block holds (its length is 16 bits). */
const BLOCK = 0xffff;

/**
 * `data` as a gzip file: no name, no time (as `gzip -n` writes one), Unix.
 *
 * @example
 * ```ts
 * import { gzipStored } from "./gzip_stored.ts";
 * const gz = gzipStored(new TextEncoder().encode("a 1\n"));
 * const back = await new Response(new Blob([gz.slice()]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
 * if (back !== "a 1\n" || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new Error(back);
 * ```
 */
export function gzipStored(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = new Uint8Array(10 + blocks * 5 + data.length + 8);
  // Magic, deflate, no flags, time 0, no extra flags, OS 3 (Unix).
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  let at = 10;
  for (let b = 0; b < blocks; b++) {
    const chunk = data.subarray(b * BLOCK, (b + 1) * BLOCK);
    out[at] = b === blocks - 1 ? 1 : 0; // BFINAL on the last; BTYPE 00: stored.
    out[at + 1] = chunk.length & 0xff;
    out[at + 2] = chunk.length >> 8;
    out[at + 3] = ~chunk.length & 0xff;
    out[at + 4] = (~chunk.length >> 8) & 0xff;
    out.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  const view = new DataView(out.buffer);
  view.setUint32(at, crc32(data), true);
  view.setUint32(at + 4, data.length >>> 0, true);
  return out;
}

let table: Uint32Array | undefined;

/** The CRC-32 gzip's trailer holds (ISO 3309's polynomial, reflected). */
function crc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
