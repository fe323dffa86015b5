/**
 * Reading a HAR as its producer wrote it: the file's encoding (UTF-8 with or
 * without a BOM, UTF-16 in either byte order, as some Windows tools save),
 * binary input refused with a clean sentence, and request bodies rebuilt from
 * whatever shape the producer used (`postData.text`, or only `params`, which
 * `chrome-har` writes for JSON bodies as one pair per top-level key).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { visible } from "../report/terminal.ts";

/**
 * Decodes the bytes of a HAR file: a BOM decides (UTF-8, UTF-16LE, UTF-16BE);
 * without one, NUL bytes in alternate places mean UTF-16, else UTF-8. Bytes
 * that are not text are a `bad-har` usage error that names the first bad
 * byte, never echoes it.
 *
 * @example
 * ```ts
 * import { decodeHar } from "./har_input.ts";
 * const utf16 = new Uint8Array([0xff, 0xfe, ...[..."{}"].flatMap((c) => [c.charCodeAt(0), 0])]);
 * if (decodeHar(utf16) !== "{}") throw new Error();
 * if (decodeHar(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])) !== "{}") throw new Error();
 * ```
 */
export function decodeHar(bytes: Uint8Array): string {
  let encoding = "utf-8";
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ["utf-16le", 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ["utf-16be", 2];
  else if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[3] === 0) {
    encoding = "utf-16le";
  } else if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) {
    encoding = "utf-16be";
  }
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(start));
  } catch {
    throw notText(`it is not valid ${encoding.toUpperCase()} text`);
  }
  // deno-lint-ignore no-control-regex -- control characters mark binary input.
  const control = /[\u0000-\u0008\u000e-\u001f]/.exec(text.slice(0, 65536));
  if (control) {
    throw notText(
      `it holds a control character (${visible(control[0])}) at character ${control.index + 1}`,
    );
  }
  return text;
}

function notText(why: string): UsageError {
  return new UsageError(
    "bad-har",
    `The file is not a HAR: ${why}, so it looks binary.`,
    'Export it from the browser\'s network panel with "Save all as HAR" (a .har file is JSON text).',
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The request body text of a HAR `postData`, rebuilt when the producer wrote
 * only `params`: under a JSON mime type the pairs are the top-level members
 * (a repeated name is a list; names 0, 1, … make a list), with their values as
 * recorded; otherwise they are form fields, `a=b&c=d`. Undefined when there
 * is neither text nor params.
 *
 * @example
 * ```ts
 * import { postDataText } from "./har_input.ts";
 * const chromeHar = { mimeType: "application/json", params: [
 *   { name: "user", value: "ann" }, { name: "tags", value: "a" }, { name: "tags", value: "b" },
 *   { name: "profile", value: { age: 3 } },
 * ] };
 * if (postDataText(chromeHar) !== '{"user":"ann","tags":["a","b"],"profile":{"age":3}}') throw new Error();
 * if (postDataText({ mimeType: "application/x-www-form-urlencoded", params: [{ name: "q", value: "a b" }] }) !== "q=a%20b") throw new Error();
 * ```
 */
export function postDataText(post: Record<string, unknown>): string | undefined {
  if (typeof post.text === "string") return post.text;
  if (!Array.isArray(post.params)) return undefined;
  const pairs = post.params.filter(isObject).filter((p) => typeof p.name === "string") as {
    name: string;
    value?: unknown;
  }[];
  const mime = typeof post.mimeType === "string" ? post.mimeType.toLowerCase() : "";
  if (/(^|[/+])json\b/.test(mime.split(";")[0].trim())) {
    const members = new Map<string, unknown>();
    const repeated = new Set<string>();
    for (const { name, value } of pairs) {
      const v = value === undefined ? null : value;
      if (!members.has(name)) members.set(name, v);
      else if (repeated.has(name)) (members.get(name) as unknown[]).push(v);
      else {
        members.set(name, [members.get(name), v]);
        repeated.add(name);
      }
    }
    const names = [...members.keys()];
    const isList = names.length > 0 && names.every((n, i) => n === String(i));
    return JSON.stringify(isList ? [...members.values()] : Object.fromEntries(members));
  }
  // The boundary is case-sensitive: the original text, not the lower-cased type.
  if (mime.startsWith("multipart/")) {
    return multipartText(String(post.mimeType), post.params.filter(isObject));
  }
  return pairs.map(({ name, value }) =>
    `${encodeURIComponent(name)}=${
      encodeURIComponent(typeof value === "string" ? value : value == null ? "" : String(value))
    }`
  ).join("&");
}

/** What a file part holds when the recording did not keep the file. */
export const FILE_PLACEHOLDER = "(file content not recorded: replace it)";

/** The boundary a multipart content type names, or a fixed one for a body built anew. */
export function multipartBoundary(contentType: string): string {
  return /boundary="?([^";]+)"?/i.exec(contentType)?.[1] ?? "flowrun-boundary";
}

/**
 * A multipart body rebuilt from HAR `params` (Firefox and chrome-har list the
 * fields, with `fileName` for files, and never the files' bytes): each file
 * part holds {@linkcode FILE_PLACEHOLDER}.
 *
 * @example
 * ```ts
 * import { FILE_PLACEHOLDER, multipartText } from "./har_input.ts";
 * const text = multipartText("multipart/form-data; boundary=b1", [
 *   { name: "title", value: "Q3" }, { name: "file", fileName: "a.csv", contentType: "text/csv" },
 * ]);
 * if (!text.startsWith('--b1\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3\r\n')) {
 *   throw new Error(text);
 * }
 * if (!text.includes(`filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${FILE_PLACEHOLDER}`)) {
 *   throw new Error(text);
 * }
 * ```
 */
export function multipartText(mime: string, params: Record<string, unknown>[]): string {
  const boundary = multipartBoundary(mime);
  const parts = params.filter((p) => typeof p.name === "string").map((p) => {
    const file = typeof p.fileName === "string";
    const head = `Content-Disposition: form-data; name="${p.name}"${
      file ? `; filename="${p.fileName}"` : ""
    }${typeof p.contentType === "string" ? `\r\nContent-Type: ${p.contentType}` : ""}`;
    const value = typeof p.value === "string" && p.value !== ""
      ? p.value
      : file
      ? FILE_PLACEHOLDER
      : "";
    return `--${boundary}\r\n${head}\r\n\r\n${value}\r\n`;
  });
  return `${parts.join("")}--${boundary}--\r\n`;
}
