/**
 * RFC 4648's encodings (base64, base64url, base32, base32hex, base16), as
 * the command-line encoders docs pipe text through write and read them: so
 * `convert curl` can send what `$(echo -n … | base64url)` gives.
 *
 * @module
 */

/** An RFC 4648 alphabet: `base16` is hex, lower-case as `xxd -p` and basez write it. */
export type Alphabet = "base64" | "base64url" | "base32" | "base32hex" | "base16";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LETTERS: Record<Alphabet, string> = {
  base64: B64,
  base64url: B64.slice(0, 62) + "-_",
  base32: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
  base32hex: "0123456789ABCDEFGHIJKLMNOPQRSTUV",
  base16: "0123456789abcdef",
};

/** Bits per character and characters per padded block. */
const SHAPE: Record<Alphabet, { bits: number; block: number }> = {
  base64: { bits: 6, block: 4 },
  base64url: { bits: 6, block: 4 },
  base32: { bits: 5, block: 8 },
  base32hex: { bits: 5, block: 8 },
  base16: { bits: 4, block: 2 },
};

/**
 * `bytes` in `alphabet`, padded with `=` to whole blocks as RFC 4648 says.
 *
 * @example
 * ```ts
 * import { encodeBaseN } from "./base_n.ts";
 * const ab = new TextEncoder().encode("ab");
 * if (encodeBaseN(ab, "base64") !== "YWI=" || encodeBaseN(ab, "base32") !== "MFRA====") throw new Error();
 * if (encodeBaseN(ab, "base16") !== "6162") throw new Error();
 * ```
 */
export function encodeBaseN(bytes: Uint8Array, alphabet: Alphabet): string {
  const letters = LETTERS[alphabet];
  const { bits, block } = SHAPE[alphabet];
  let out = "";
  let acc = 0;
  let held = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    held += 8;
    while (held >= bits) {
      held -= bits;
      out += letters[(acc >> held) & ((1 << bits) - 1)];
    }
    acc &= (1 << held) - 1;
  }
  if (held > 0) out += letters[(acc << (bits - held)) & ((1 << bits) - 1)];
  return out + "=".repeat((block - (out.length % block)) % block);
}

/**
 * The bytes `text` encodes in `alphabet`: line breaks and padding skipped
 * (as `base64 -d` does), `undefined` for any other character outside it.
 *
 * @example
 * ```ts
 * import { decodeBaseN } from "./base_n.ts";
 * if (new TextDecoder().decode(decodeBaseN("YWI=\n", "base64")) !== "ab") throw new Error();
 * if (decodeBaseN("Y*I=", "base64") !== undefined) throw new Error();
 * ```
 */
export function decodeBaseN(text: string, alphabet: Alphabet): Uint8Array | undefined {
  const letters = LETTERS[alphabet];
  const { bits } = SHAPE[alphabet];
  const out: number[] = [];
  let acc = 0;
  let held = 0;
  for (const ch of text.replace(/[\r\n]|=+\s*$/g, "")) {
    const value = letters.indexOf(alphabet === "base16" ? ch.toLowerCase() : ch);
    if (value < 0) return undefined;
    acc = (acc << bits) | value;
    held += bits;
    if (held >= 8) {
      held -= 8;
      out.push((acc >> held) & 0xff);
    }
    acc &= (1 << held) - 1;
  }
  return new Uint8Array(out);
}
