/**
 * A multipart body written out as the runtime writes one (the Fetch
 * standard's multipart/form-data encoding), with a boundary of our own: the
 * `curl` line sends it as bytes, so it arrives as the parts flowrun sent.
 *
 * @module
 */
import type { SentPart } from "./curl_body.ts";

/** Field values end their lines with CRLF when sent; a lone CR or LF is made one. */
const LINE_BREAK = /\r\n|\r|\n/g;

/** A name or file name in a part's header: line breaks and quotes percent-encoded. */
function headerName(text: string): string {
  return text.replaceAll("\n", "%0A").replaceAll("\r", "%0D").replaceAll('"', "%22");
}

/**
 * The body's chunks (text, and each file's bytes) and its content type. The
 * boundary is the first of `flowrun-boundary-N` that no part holds.
 *
 * @example
 * ```ts
 * import { multipartBody } from "./multipart_bytes.ts";
 * const { chunks, type } = multipartBody([{ name: "a", value: "x\ny" }]);
 * const text = chunks.join("");
 * if (type !== "multipart/form-data; boundary=flowrun-boundary-0") throw new Error(type);
 * if (!text.includes('name="a"\r\n\r\nx\r\ny\r\n--flowrun-boundary-0--')) throw new Error(text);
 * ```
 */
export function multipartBody(
  parts: readonly SentPart[],
): { chunks: (string | Uint8Array)[]; type: string } {
  const boundary = freeBoundary(parts);
  const chunks: (string | Uint8Array)[] = [];
  for (const part of parts) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${
      headerName(part.name.replace(LINE_BREAK, "\r\n"))
    }"`;
    if ("value" in part) {
      // A `{content}` part (raw) is bytes the flow holds: its line breaks are its own.
      const value = part.raw ? part.value : part.value.replace(LINE_BREAK, "\r\n");
      chunks.push(`${head}\r\n\r\n${value}\r\n`);
      continue;
    }
    const type = part.type || "application/octet-stream";
    chunks.push(
      `${head}; filename="${headerName(part.filename)}"\r\nContent-Type: ${type}\r\n\r\n`,
    );
    chunks.push(part.bytes, "\r\n");
  }
  chunks.push(`--${boundary}--\r\n`);
  return { chunks, type: `multipart/form-data; boundary=${boundary}` };
}

/** A boundary that occurs in no part (each part's bytes read as Latin-1, one character a byte). */
function freeBoundary(parts: readonly SentPart[]): string {
  const texts = parts.map((p) =>
    "value" in p ? p.value : new TextDecoder("latin1").decode(p.bytes) + p.filename
  );
  for (let n = 0;; n++) {
    const boundary = `flowrun-boundary-${n}`;
    if (!texts.some((t) => t.includes(boundary))) return boundary;
  }
}
