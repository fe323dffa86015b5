/**
 * SHA-256 and HMAC-SHA-256, synchronously: Web Crypto's are async, and the
 * flow cache seals and checks its entries on the synchronous load path
 * (`node:crypto` would start Deno's Node layer on every cached run).
 *
 * @module
 */

// deno-fmt-ignore
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * The SHA-256 digest of `data`.
 *
 * @example
 * ```ts
 * import { sha256, hex } from "./sha256.ts";
 * const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
 * if (hex(sha256(new Uint8Array())) !== empty) throw new Error();
 * ```
 */
export function sha256(data: Uint8Array): Uint8Array {
  // The tail (the last bytes, 0x80, the bit length) in one or two blocks of its own, so the
  // data is never copied; a block is read straight from whichever holds it.
  const full = data.length - (data.length % 64);
  const tail = new Uint8Array(data.length - full < 56 ? 64 : 128);
  tail.set(data.subarray(full));
  tail[data.length - full] = 0x80;
  const bits = data.length * 8;
  const tailView = new DataView(tail.buffer);
  tailView.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
  tailView.setUint32(tail.length - 4, bits >>> 0);
  const h = new Int32Array([
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  ]);
  const w = new Int32Array(64);
  for (let at = 0; at < full; at += 64) block(h, w, data, at);
  for (let at = 0; at < tail.length; at += 64) block(h, w, tail, at);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((v, i) => outView.setInt32(i * 4, v));
  return out;
}

/** Folds the 64-byte block of `bytes` at `at` into the state `h` (`w` is scratch). */
function block(h: Int32Array, w: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

/**
 * HMAC-SHA-256 (RFC 2104) of `data` under `key`.
 *
 * @example
 * ```ts
 * import { hex, hmacSha256 } from "./sha256.ts";
 * // RFC 4231, test case 2.
 * const text = (s: string) => new TextEncoder().encode(s);
 * const mac = hex(hmacSha256(text("Jefe"), text("what do ya want for nothing?")));
 * if (mac !== "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843") throw new Error(mac);
 * ```
 */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(data, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/**
 * Bytes as lowercase hex.
 *
 * @example
 * ```ts
 * import { hex } from "./sha256.ts";
 * if (hex(new Uint8Array([0, 255])) !== "00ff") throw new Error();
 * ```
 */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
