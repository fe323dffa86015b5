/**
 * A response body whose text does not give its bytes back: bytes that are
 * not UTF-8 (an archive, an image, a database's snapshot) became U+FFFD, or a
 * byte order mark was taken off. Such a body keeps its bytes beside its text,
 * so a capture of the raw body (`{body: base64}`) gives exactly what the
 * server sent; any other body's bytes are its text's UTF-8, made again when
 * asked, so a text body costs no second copy.
 *
 * @module
 */

/**
 * A body's text and the bytes it was decoded from.
 *
 * @example
 * ```ts
 * import type { HeldBytes } from "./held_bytes.ts";
 * const held: HeldBytes = { text: "\ufffd", bytes: new Uint8Array([0xff]) };
 * if (held.bytes[0] !== 0xff) throw new Error();
 * ```
 */
export interface HeldBytes {
  /** The body decoded as UTF-8, invalid bytes as U+FFFD. */
  readonly text: string;
  /** The bytes as they arrived (after any `Content-Encoding` was undone). */
  readonly bytes: Uint8Array;
}

/**
 * The body as `text` alone when its UTF-8 gives its bytes back, else both
 * (`head` is the first block, `whole` joins them):
 * a U+FFFD in the text (a byte that was not UTF-8, or one the body wrote) or
 * a byte order mark at the start (the decoder takes it off) keeps the bytes.
 *
 * @example
 * ```ts
 * import { heldBody } from "./held_bytes.ts";
 * const ok = new Uint8Array([0x6f, 0x6b]);
 * if (heldBody("ok", ok, () => ok) !== "ok") throw new Error();
 * const bytes = new Uint8Array([0x1f, 0x8b]);
 * const gz = heldBody("\u001f\ufffd", bytes, () => bytes);
 * if (typeof gz === "string" || gz.bytes[1] !== 0x8b) throw new Error();
 * ```
 */
export function heldBody(
  text: string,
  head: Uint8Array | undefined,
  whole: () => Uint8Array,
): string | HeldBytes {
  if (!text.includes("\ufffd") && !startsWithBom(head)) return text;
  return { text, bytes: whole() };
}

/** Whether the body's first bytes are UTF-8's byte order mark, which decoding drops. */
function startsWithBom(head: Uint8Array | undefined): boolean {
  return !!head && head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

/**
 * The bytes a response body was: those kept, or its text's UTF-8.
 *
 * @example
 * ```ts
 * import { bodyBytes } from "./held_bytes.ts";
 * if (bodyBytes("é", undefined).length !== 2) throw new Error();
 * if (bodyBytes("\ufffd", new Uint8Array([0xff]))[0] !== 0xff) throw new Error();
 * ```
 */
export function bodyBytes(text: string, held: Uint8Array | undefined): Uint8Array {
  return held ?? new TextEncoder().encode(text);
}
