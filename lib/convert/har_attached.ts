/**
 * Bodies a HAR keeps in files beside it: Playwright's `recordHar` with `content: "attach"` (or
 * `mode: "minimal"`) writes each request body and response body as a file named by its SHA-1
 * (`postData._file`, `response.content._file`) and leaves `text` empty. Read as a HAR alone, every
 * POST was sent with an empty body and every chunked answer looked still open; so the caller reads
 * the files the entries name ({@linkcode attachedNames}) and they are put back in place
 * ({@linkcode inlineAttached}) before the recording is converted.
 *
 * @module
 */
import { decodeHar } from "./har_input.ts";

/** A name Playwright writes: a file in the HAR's own folder, never a path elsewhere. */
const FILE_NAME = /^[\w.-]{1,200}$/;

/** The `_file` holders of an entry: its request's `postData` and its response's `content`. */
function holders(entry: unknown): Record<string, unknown>[] {
  const e = (entry ?? {}) as { request?: { postData?: unknown }; response?: { content?: unknown } };
  return [e.request?.postData, e.response?.content].filter((h): h is Record<string, unknown> =>
    typeof h === "object" && h !== null && !Array.isArray(h)
  );
}

/** The entries of a HAR's text, or `undefined` when it is no JSON with `log.entries`. */
function entriesOf(text: string): { har: unknown; entries: unknown[] } | undefined {
  if (!text.includes('"_file"')) return undefined;
  try {
    const har = JSON.parse(text) as { log?: { entries?: unknown } };
    const entries = har?.log?.entries;
    return Array.isArray(entries) ? { har, entries } : undefined;
  } catch {
    // Not JSON: the conversion itself says so, in its words.
    return undefined;
  }
}

/**
 * The file names a recording's entries keep their bodies in (each once); a name that is not
 * a plain file name (a path, `..`) is left out, and so never read.
 *
 * @example
 * ```ts
 * import { attachedNames } from "./har_attached.ts";
 * const har = JSON.stringify({ log: { entries: [{
 *   request: { postData: { text: "", _file: "a1.json" } },
 *   response: { content: { _file: "../etc/passwd" } },
 * }] } });
 * if (attachedNames(new TextEncoder().encode(har)).join() !== "a1.json") throw new Error();
 * ```
 */
export function attachedNames(bytes: Uint8Array): string[] {
  const parsed = entriesOf(safeDecode(bytes));
  if (!parsed) return [];
  const names = new Set<string>();
  for (const entry of parsed.entries) {
    for (const h of holders(entry)) {
      if (typeof h._file === "string" && FILE_NAME.test(h._file) && h._file !== "..") {
        names.add(h._file);
      }
    }
  }
  return [...names];
}

/** The text of `bytes`, or "" when they are not text (the conversion says why). */
function safeDecode(bytes: Uint8Array): string {
  try {
    return decodeHar(bytes);
  } catch {
    return "";
  }
}

/**
 * The recording with each attached body in place: a request body as `postData.text`, a
 * response body as `content.text` (base64, `encoding: "base64"`, when it is not UTF-8 text)
 * with its size. A name `files` lacks is counted in `missing` and its entry left as it is.
 *
 * @example
 * ```ts
 * import { inlineAttached } from "./har_attached.ts";
 * const har = JSON.stringify({ log: { entries: [{
 *   request: { postData: { mimeType: "application/json", text: "", _file: "b.json" } },
 *   response: { content: { size: -1, _file: "c.json" } },
 * }] } });
 * const files = new Map([["b.json", new TextEncoder().encode('{"a":1}')]]);
 * const { bytes, missing } = inlineAttached(new TextEncoder().encode(har), files);
 * const entry = JSON.parse(new TextDecoder().decode(bytes)).log.entries[0];
 * if (entry.request.postData.text !== '{"a":1}' || missing.join() !== "c.json") throw new Error();
 * ```
 */
export function inlineAttached(
  bytes: Uint8Array,
  files: ReadonlyMap<string, Uint8Array>,
): { bytes: Uint8Array; missing: string[] } {
  const parsed = entriesOf(safeDecode(bytes));
  if (!parsed) return { bytes, missing: [] };
  const missing = new Set<string>();
  for (const entry of parsed.entries) {
    const [request, response] = [
      (entry as { request?: { postData?: unknown } })?.request?.postData,
      (entry as { response?: { content?: unknown } })?.response?.content,
    ];
    for (const h of holders(entry)) {
      if (typeof h._file !== "string") continue;
      const body = files.get(h._file);
      if (body === undefined) {
        missing.add(h._file);
        continue;
      }
      if (h === request) inlineRequest(h, body);
      else if (h === response) inlineResponse(h, body);
    }
  }
  return { bytes: new TextEncoder().encode(JSON.stringify(parsed.har)), missing: [...missing] };
}

/**
 * A request body as `text` when it is UTF-8, else as base64 (`encoding: "base64"`, as a
 * response's), sent byte for byte (`har_body_bytes.ts`). A multipart body that is not UTF-8
 * stays unrecorded: its parts are read from text, and its file is a placeholder either way.
 */
function inlineRequest(postData: Record<string, unknown>, body: Uint8Array): void {
  if (postData.text) return;
  const text = utf8(body);
  if (text !== undefined) postData.text = text;
  else if (!/^multipart\//i.test(String(postData.mimeType ?? ""))) {
    postData.text = btoa(Array.from(body, (b) => String.fromCharCode(b)).join(""));
    postData.encoding = "base64";
  }
}

/** A response body as `text` (base64 when not UTF-8) and its size. */
function inlineResponse(content: Record<string, unknown>, body: Uint8Array): void {
  if (typeof content.text === "string" && content.text !== "") return;
  const text = utf8(body);
  content.text = text ?? btoa(Array.from(body, (b) => String.fromCharCode(b)).join(""));
  if (text === undefined) content.encoding = "base64";
  content.size = body.length;
}

function utf8(body: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}
