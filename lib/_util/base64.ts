/**
 * Bytes as base64 text and back (RFC 4648), for bytes a flow holds as text:
 * an answer captured with `{body: base64}`, sent back by `body_base64` or a
 * part's `content_base64`. Text cannot hold bytes that are not UTF-8 (an
 * archive's, an image's), so they are carried as base64.
 *
 * @module
 */

/** RFC 4648 base64, padding optional (blanks, line breaks and base64url's letters read first). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * Bytes as base64 with padding, in pieces so a large body never makes one
 * argument list per byte.
 *
 * @example
 * ```ts
 * import { toBase64 } from "./base64.ts";
 * if (toBase64(new Uint8Array([0x1f, 0x8b, 0x08])) !== "H4sI") throw new Error();
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  // A multiple of 3, so no piece but the last is padded.
  for (let at = 0; at < bytes.length; at += PIECE) {
    pieces.push(btoa(String.fromCharCode(...bytes.subarray(at, at + PIECE))));
  }
  return pieces.join("");
}

const PIECE = 3 * 8192;

/**
 * The bytes `text` encodes, or undefined when it is not base64. Blanks and
 * line breaks (MIME wraps lines) are left out, base64url's `-` and `_` read
 * as `+` and `/`, padding optional.
 *
 * @example
 * ```ts
 * import { fromBase64 } from "./base64.ts";
 * const bytes = fromBase64("H4sI");
 * if (bytes?.length !== 3 || bytes[1] !== 0x8b) throw new Error();
 * if (fromBase64("not base64!") !== undefined || fromBase64("YQ")?.[0] !== 0x61) throw new Error();
 * ```
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const plain = text.replace(/\s+/g, "").replaceAll("-", "+").replaceAll("_", "/");
  if (!BASE64.test(plain)) return undefined;
  const binary = atob(plain + "=".repeat((4 - plain.length % 4) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
