/**
 * A request body that is not UTF-8 text (a protobuf message, a blob, a gzip'd or image upload),
 * as each HAR producer records it. A flow sends a `body` as UTF-8, so such a body sent as its
 * recorded text reaches the server changed, and a server that reads bytes refuses it. Headless
 * Chromium recorded the same bytes four ways:
 *
 * - DevTools' `postData` (chrome-har, browsertime): one character per byte (ISO-8859-1) when
 *   the bytes are not UTF-8, and the UTF-8 text when they are;
 * - `postData.encoding: "base64"` (the way HAR writes a binary response; Playwright's attached
 *   bodies are put back so, `har_attached.ts`);
 * - Playwright's embedded `postData.text`: the bytes decoded as UTF-8, each bad one replaced by
 *   U+FFFD: lost;
 * - Playwright's embedded body under `application/octet-stream`: an empty text beside a size:
 *   lost.
 *
 * @module
 */
import { isObject, type NameValue, str } from "./_har_fields.ts";

/** What a recorded request body is, byte-wise. */
export type RecordedBytes =
  /** The text is the body: sent as UTF-8, it is the bytes the browser sent. */
  | { kind: "text"; text: string }
  /** The body is not UTF-8 text and the recording holds every byte. */
  | { kind: "bytes"; bytes: Uint8Array<ArrayBuffer> }
  /** The recording holds the body's text with its bad bytes replaced, or holds none of it. */
  | { kind: "lost"; why: "replaced" | "empty" };

/** C0 controls other than whitespace, and C1 controls: bytes no typed text holds. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/;

/**
 * What the request body a `postData` records is, given the request's headers; `undefined`
 * when it is plain text as recorded (the usual case, decided without copying the text).
 * Bytes one per character are taken only with evidence: the bytes are not UTF-8 (DevTools
 * would have given the text) and either `Content-Length` counts one byte per character where
 * UTF-8 would count more, or the text holds control characters no typed text holds. Text
 * with U+FFFD is lost unless `Content-Length` matches its UTF-8 length.
 *
 * @example
 * ```ts
 * import { recordedBytes } from "./har_body_bytes.ts";
 * const length = [{ name: "Content-Length", value: "3" }];
 * const bytes = recordedBytes({ text: "\u00ff\u0000A" }, length);
 * if (bytes?.kind !== "bytes" || bytes.bytes[0] !== 0xff) throw new Error();
 * if (recordedBytes({ text: btoa("hi"), encoding: "base64" }, [])?.kind !== "text") throw new Error();
 * if (recordedBytes({ text: "\ufffdA" }, length)?.kind !== "lost") throw new Error();
 * if (recordedBytes({ text: "café" }, [{ name: "Content-Length", value: "5" }]) !== undefined) throw new Error();
 * ```
 */
export function recordedBytes(
  post: Record<string, unknown>,
  headers: readonly NameValue[],
): RecordedBytes | undefined {
  const text = str(post.text);
  const length = contentLength(headers);
  if (text === undefined) return undefined;
  if (str(post.encoding)?.toLowerCase() === "base64") return fromBase64(text);
  if (text === "") {
    const params = Array.isArray(post.params) ? post.params.length : 0;
    return params === 0 && (length ?? 0) > 0 ? { kind: "lost", why: "empty" } : undefined;
  }
  if (text.includes("\ufffd")) {
    return length === utf8Length(text) ? undefined : { kind: "lost", why: "replaced" };
  }
  return oneCharPerByte(text, length);
}

/** The body of a base64 `postData`: its UTF-8 text, else its bytes. */
function fromBase64(text: string): RecordedBytes | undefined {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    // Not base64 after all: the text is what the recording holds.
    return undefined;
  }
  const decoded = utf8(bytes);
  return decoded === undefined ? { kind: "bytes", bytes } : { kind: "text", text: decoded };
}

/** DevTools' one character per byte, when the text is that and not typed text. */
function oneCharPerByte(text: string, length: number | undefined): RecordedBytes | undefined {
  // Fast path: ASCII is the same text either way.
  if (!/[\u0080-\uffff]/.test(text) || /[\u0100-\uffff]/.test(text)) return undefined;
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
  // Bytes that are UTF-8 would have been recorded as their text.
  if (utf8(bytes) !== undefined) return undefined;
  const counted = length === undefined ? CONTROL.test(text) : length === text.length;
  return counted ? { kind: "bytes", bytes } : undefined;
}

/** The `Content-Length` the request sent, when a plain number. */
function contentLength(headers: readonly NameValue[]): number | undefined {
  const value = headers.find((h) => h.name.toLowerCase() === "content-length")?.value.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The number of bytes `text` is in UTF-8. */
function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** `bytes` as UTF-8 text; `undefined` when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether `post` is a `postData` object (for callers holding the raw request).
 *
 * @example
 * ```ts
 * import { postDataOf } from "./har_body_bytes.ts";
 * if (postDataOf({ postData: { text: "a" } })?.text !== "a" || postDataOf({}) !== undefined) throw new Error();
 * ```
 */
export function postDataOf(request: unknown): Record<string, unknown> | undefined {
  return isObject(request) && isObject(request.postData) ? request.postData : undefined;
}
