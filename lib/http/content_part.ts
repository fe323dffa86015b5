/**
 * The `{content}` multipart part as sent: text the flow holds (an earlier
 * answer), as its UTF-8 bytes with its line breaks as they are. With a
 * filename it is a file part; without, a part with neither filename nor type
 * (curl's `-F 'f=<file'`), which FormData cannot write (it makes a text
 * field's line breaks CRLF), so such a body is written here, byte for byte.
 *
 * @module
 */
import type { MultipartPart } from "../model/flow.ts";
import type { SentPart } from "./curl_body.ts";
import { multipartBody } from "./multipart_bytes.ts";

/**
 * The part as sent, its text `text` rendered.
 *
 * @example
 * ```ts
 * import { contentSent } from "./content_part.ts";
 * const one = contentSent({ name: "f", kind: "content", value: { kind: "const", value: "" }, filename: "a.json" }, "a\nb");
 * if (!("bytes" in one) || one.type !== "application/octet-stream" || one.bytes.length !== 3) throw new Error();
 * const raw = contentSent({ name: "f", kind: "content", value: { kind: "const", value: "" } }, "a\nb");
 * if (!("raw" in raw) || raw.value !== "a\nb") throw new Error();
 * ```
 */
export function contentSent(
  part: Extract<MultipartPart, { kind: "content" }>,
  text: string,
): SentPart {
  if (part.filename === undefined) return { name: part.name, value: text, raw: true };
  const type = part.contentType ?? "application/octet-stream";
  return { name: part.name, filename: part.filename, type, bytes: new TextEncoder().encode(text) };
}

/**
 * The whole multipart body as bytes, and its content type (with the boundary
 * it uses), for a body FormData cannot write.
 *
 * @example
 * ```ts
 * import { multipartPayload } from "./content_part.ts";
 * const { payload, type } = multipartPayload([{ name: "f", value: "a\nb", raw: true }]);
 * const text = new TextDecoder().decode(payload);
 * if (!text.includes('name="f"\r\n\r\na\nb\r\n') || !type.startsWith("multipart/form-data")) throw new Error(text);
 * ```
 */
export function multipartPayload(
  sent: readonly SentPart[],
): { payload: Uint8Array<ArrayBuffer>; type: string } {
  const { chunks, type } = multipartBody(sent);
  const pieces = chunks.map((c) => typeof c === "string" ? new TextEncoder().encode(c) : c);
  const payload = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    payload.set(piece, at);
    at += piece.length;
  }
  return { payload, type };
}
