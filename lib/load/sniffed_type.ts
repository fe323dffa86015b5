/**
 * A file's media type read from its first bytes, for a multipart file whose
 * name says nothing (`.bin`, no extension). A converter's placeholder is
 * named `.bin`; the user puts a picture there as the summary asks, and a
 * server whose upload filter wants an image refused the part as
 * `application/octet-stream`, the name's type (an Express recipes API's
 * avatar, 400 "Only image files are allowed"). The content is the
 * evidence: the signatures of PNG, JPEG, GIF, WebP and PDF, which no text
 * begins with.
 *
 * @module
 */

/** Each type by the bytes it starts with; `null` stands for any byte (WebP's RIFF size). */
const SIGNATURES: readonly [string, readonly (number | null)[]][] = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38]],
  ["image/webp", [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

/**
 * The media type `bytes` begin as, if one of the signatures above; none otherwise.
 *
 * @example
 * ```ts
 * import { sniffedType } from "./sniffed_type.ts";
 * if (sniffedType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0])) !== "image/png") {
 *   throw new Error();
 * }
 * if (sniffedType(new TextEncoder().encode("placeholder: replace with …")) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function sniffedType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, head]) =>
    bytes.length >= head.length && head.every((b, i) => b === null || bytes[i] === b)
  )?.[0];
}
