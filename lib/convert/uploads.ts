/**
 * Uploads in a recording: a multipart body read back into its fields and
 * files, so the flow can send it as a `multipart:` map (its own boundary,
 * every value encoded by the runner) with each file read from a file beside
 * the flow. Browsers never keep an upload's bytes in a HAR, so such a file is
 * a placeholder the user replaces; the recorded file name is kept.
 *
 * @module
 */
import { FILE_PLACEHOLDER } from "./har_input.ts";

/** One part of a recorded multipart body. */
export interface UploadPart {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file part's recorded file name (its presence makes the part a file). */
  fileName?: string;
  contentType?: string;
  /** A file part's recorded content, when the recording holds it. */
  content?: string;
}

/** The text of a placeholder file. */
export const PLACEHOLDER_TEXT = `${FILE_PLACEHOLDER}\n`;

/**
 * The parts of a multipart body, or `undefined` when the text is not one
 * (no part with a `Content-Disposition` name).
 *
 * @example
 * ```ts
 * import { multipartParts } from "./uploads.ts";
 * const text = '--b\r\nContent-Disposition: form-data; name="t"\r\n\r\nQ3\r\n' +
 *   '--b\r\nContent-Disposition: form-data; name="f"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n\r\n--b--\r\n';
 * const [t, f] = multipartParts(text, "b")!;
 * if (t.value !== "Q3" || f.fileName !== "a.csv" || f.contentType !== "text/csv" || f.content !== "") {
 *   throw new Error(JSON.stringify([t, f]));
 * }
 * ```
 */
export function multipartParts(text: string, boundary: string): UploadPart[] | undefined {
  const chunks = text.split(`--${boundary}`).slice(1);
  const parts: UploadPart[] = [];
  for (const chunk of chunks) {
    if (chunk.startsWith("--")) break;
    const body = chunk.replace(/^\r?\n/, "");
    const end = /\r?\n\r?\n/.exec(body);
    const head = end ? body.slice(0, end.index) : body;
    const content = end ? body.slice(end.index + end[0].length).replace(/\r?\n$/, "") : "";
    const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /^content-type:\s*(.+?)\s*$/im.exec(head)?.[1];
    parts.push(
      fileName === undefined ? { name, value: content } : { name, fileName, contentType, content },
    );
  }
  return parts.length > 0 ? parts : undefined;
}

/**
 * Where a placeholder for an uploaded file goes, relative to the flow:
 * `uploads/` and the recorded base name made safe for any file system.
 *
 * @example
 * ```ts
 * import { placeholderPath } from "./uploads.ts";
 * if (placeholderPath("C:\\scans\\Cover 1.pdf") !== "uploads/Cover_1.pdf") throw new Error();
 * if (placeholderPath("../..") !== "uploads/upload.bin") throw new Error();
 * ```
 */
export function placeholderPath(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const safe = base.replace(/[^\w.-]+/g, "_").replace(/^[.]+/, "").slice(0, 100);
  return `uploads/${safe === "" || safe === "_" ? "upload.bin" : safe}`;
}

/**
 * The recorded base name of a file part, when it differs from the
 * placeholder's (then the flow names it with `filename:`).
 *
 * @example
 * ```ts
 * import { sentFileName } from "./uploads.ts";
 * if (sentFileName("../a b.pdf") !== "a b.pdf" || sentFileName("plan.csv") !== undefined) throw new Error();
 * ```
 */
export function sentFileName(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  return base !== "" && `uploads/${base}` !== placeholderPath(fileName) ? base : undefined;
}
