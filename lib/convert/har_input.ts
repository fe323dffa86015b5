/**
 * Reading a HAR as its producer wrote it: the file's encoding (UTF-8 with or
 * without a BOM, UTF-16 in either byte order, as some Windows tools save),
 * binary input refused with a clean sentence, and request bodies rebuilt from
 * whatever shape the producer used (`postData.text`, or only `params`, which
 * `chrome-har` writes for JSON bodies as one pair per top-level key).
 *
 * @module
 */
import { droppedEmptyList, nestedOneItemList } from "./har_dropped_lists.ts";
import { UsageError } from "../model/errors.ts";
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
  const [encoding, start] = encodingOf(bytes);
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

/** The text encoding of `bytes` and where the text starts: after a BOM, else by NUL bytes. */
function encodingOf(bytes: Uint8Array): [string, number] {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return ["utf-8", 3];
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return ["utf-16le", 2];
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return ["utf-16be", 2];
  if (bytes.length < 4) return ["utf-8", 0];
  if (bytes[0] !== 0 && bytes[1] === 0 && bytes[3] === 0) return ["utf-16le", 0];
  if (bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) return ["utf-16be", 0];
  return ["utf-8", 0];
}

function notText(why: string): UsageError {
  return new UsageError(
    "bad-har",
    `The file is not a HAR: ${why}, so it looks binary.`,
    'Export it from the browser\'s network panel with "Save all as HAR" (a .har file is JSON text).',
  );
}

/**
 * A recorded value where HAR has text (a header's, cookie's or parameter's
 * value): a number or boolean as written, nothing as "", and a list or map as
 * its JSON. `String()` of a list joins it recursively, so a list nested 50,000
 * deep in a hostile recording overflowed the stack (exit 3).
 *
 * @example
 * ```ts
 * import { fieldText } from "./har_input.ts";
 * if (fieldText(["a", ["b"]]) !== '["a",["b"]]' || fieldText(null) !== "" || fieldText(2) !== "2") throw new Error();
 * ```
 */
export function fieldText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
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
  if (!fromParams(post)) return typeof post.text === "string" ? post.text : undefined;
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
    `${encodeURIComponent(name)}=${encodeURIComponent(fieldText(value))}`
  ).join("&");
}

const isJsonType = (mime: unknown) =>
  typeof mime === "string" && /(^|[/+])json\b/i.test(mime.split(";")[0].trim());

/**
 * Whether a `postData`'s body is rebuilt from its `params`: there are params,
 * and no text, an empty text, or (under a JSON type) a text that is not JSON,
 * as a truncated copy would be. Text that is present and consistent wins.
 *
 * @example
 * ```ts
 * import { fromParams } from "./har_input.ts";
 * const params = [{ name: "a", value: "1" }];
 * if (fromParams({ text: '{"a":"1"}', params, mimeType: "application/json" })) throw new Error();
 * if (!fromParams({ text: "", params }) || !fromParams({ params })) throw new Error();
 * if (!fromParams({ text: '{"a":', params, mimeType: "application/json" })) throw new Error();
 * ```
 */
export function fromParams(post: Record<string, unknown>): boolean {
  if (!Array.isArray(post.params) || post.params.length === 0) return false;
  if (typeof post.text !== "string" || post.text === "") return true;
  if (!isJsonType(post.mimeType)) return false;
  try {
    JSON.parse(post.text);
    return false;
  } catch {
    return true;
  }
}

/** What {@linkcode repairFlattenedJson} found. */
export interface JsonRepair {
  /** The body to send: the rebuilt one, with one-item lists restored when the evidence agrees. */
  text: string;
  /** Top-level members written as one-item lists again. */
  restored: string[];
  /** Set when the rebuilt body still disagrees with the size the browser sent: what was lost. */
  lost?: string;
}

/** Deepest level of a response searched for a member that shows a list. */
const MAX_EVIDENCE_DEPTH = 8;

/** Whether `response` holds, at any depth, member `key` as a list that contains `value`. */
function listedIn(response: unknown, key: string, value: unknown, depth = 0): boolean {
  if (depth > MAX_EVIDENCE_DEPTH || typeof response !== "object" || response === null) return false;
  if (Array.isArray(response)) {
    return response.slice(0, 50).some((v) => listedIn(v, key, value, depth + 1));
  }
  const o = response as Record<string, unknown>;
  const held = Object.hasOwn(o, key) ? o[key] : undefined;
  if (Array.isArray(held) && held.length === 1 && held[0] === value) return true;
  return Object.values(o).slice(0, 200).some((v) => listedIn(v, key, value, depth + 1));
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * The members the rest of the recording sends or answers as a list (Node-RED's `flows`, a list
 * in every other deploy and in `GET /flows`; a Glewlwyd client's `redirect_uri` and
 * `token_endpoint_auth_method`, lists in the client listing), whose items (an object too) made
 * lists again give the size sent. Each wrap adds the same two bytes, so only when every such
 * member is needed is the choice the recording's own: fewer lost bytes than candidates leave it
 * open, and nothing is guessed.
 */
function wrapListedElsewhere(
  members: Record<string, unknown>,
  sentBytes: number,
  listedElsewhere: (key: string) => boolean,
): JsonRepair | undefined {
  const restored = Object.keys(members).filter((k) =>
    !Array.isArray(members[k]) && listedElsewhere(k)
  );
  if (restored.length === 0) return undefined;
  const fixed = JSON.stringify(
    Object.fromEntries(
      Object.entries(members).map(([k, v]) => [k, restored.includes(k) ? [v] : v]),
    ),
  );
  return byteLength(fixed) === sentBytes ? { text: fixed, restored } : undefined;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The body read in the shape of an answer that echoes it (a save answering
 * what it stored, Homebridge UI's config editor): every member the pairs
 * kept is in the answer with the same value, or as a one-item list of it;
 * those are lists again, and the answer's empty lists the pairs dropped are
 * put back. Kept only when that gives the size the browser sent.
 */
function echoedShape(
  members: Record<string, unknown>,
  response: unknown,
  sentBytes: number,
): JsonRepair | undefined {
  if (typeof response !== "object" || response === null || Array.isArray(response)) return;
  const shaped: Record<string, unknown> = {};
  const restored: string[] = [];
  for (const [k, v] of Object.entries(response)) {
    const read = Object.hasOwn(members, k) ? keptAs(members[k], v) : droppedAs(v);
    if (read === "differs") return undefined;
    if (read === undefined) continue;
    shaped[k] = read.value;
    if (read.restored) restored.push(k);
  }
  if (Object.keys(members).some((k) => !Object.hasOwn(shaped, k)) || restored.length === 0) return;
  const text = JSON.stringify(shaped);
  return byteLength(text) === sentBytes ? { text, restored } : undefined;
}

/** A member the pairs kept, read beside the answer's: the same, a one-item list of it, or not. */
function keptAs(member: unknown, answered: unknown) {
  if (sameJson(answered, member)) return { value: member, restored: false };
  const listed = Array.isArray(answered) && answered.length === 1 && sameJson(answered[0], member);
  return listed ? { value: [member], restored: true } : "differs" as const;
}

/** A member of the answer the pairs lack: an empty list they dropped, or the answer's own. */
function droppedAs(answered: unknown) {
  return Array.isArray(answered) && answered.length === 0
    ? { value: [], restored: true }
    : undefined;
}

/**
 * Checks a JSON body rebuilt from chrome-har's `params` against the evidence
 * of the same entry. chrome-har writes a list as one pair per item, so a
 * one-item list comes back as its item and an empty list disappears. When
 * the rebuilt body is smaller than the bytes the browser sent
 * (`sentBytes`: `request.bodySize` or `Content-Length`), a member the
 * response shows as a one-item list holding the same value is made a list
 * again, or the body is read in the shape of a response that echoes it
 * (its empty lists put back), kept only when the size then matches;
 * otherwise `lost` says what the recording lost.
 *
 * @example
 * ```ts
 * import { repairFlattenedJson } from "./har_input.ts";
 * const sent = '{"name":"Q3 plan","tags":["q3"]}';
 * const fixed = repairFlattenedJson('{"name":"Q3 plan","tags":"q3"}', sent.length, { id: "p1", tags: ["q3"] });
 * if (fixed.text !== sent || fixed.restored[0] !== "tags") throw new Error(JSON.stringify(fixed));
 * const unknown = repairFlattenedJson('{"name":"Q3 plan"}', sent.length, {});
 * if (!unknown.lost) throw new Error();
 * ```
 */
export function repairFlattenedJson(
  text: string,
  sentBytes: number | undefined,
  response: unknown,
  listedElsewhere: (key: string) => boolean = () => false,
  listed: Iterable<string> = [],
): JsonRepair {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { text, restored: [] };
  }
  const rebuilt = byteLength(text);
  // The page may have pretty-printed it (TiddlyWiki's 4 spaces): the same members, nothing lost.
  const pretty = [2, 4, "\t"].some((i) => byteLength(JSON.stringify(body, null, i)) === sentBytes);
  if (sentBytes === undefined || sentBytes <= 0 || rebuilt === sentBytes || pretty) {
    return { text, restored: [] };
  }
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const members = body as Record<string, unknown>;
    const restored = Object.keys(members).filter((k) => {
      const v = members[k];
      return (typeof v !== "object" || v === null) && listedIn(response, k, v);
    });
    if (restored.length > 0) {
      const fixed = JSON.stringify(
        Object.fromEntries(
          Object.entries(members).map(([k, v]) => [k, restored.includes(k) ? [v] : v]),
        ),
      );
      if (byteLength(fixed) === sentBytes) return { text: fixed, restored };
    }
    const echo = echoedShape(members, response, sentBytes);
    if (echo) return echo;
    const wrapped = wrapListedElsewhere(members, sentBytes, listedElsewhere);
    if (wrapped) return wrapped;
    const back = droppedEmptyList(members, sentBytes, listed) ??
      nestedOneItemList(members, sentBytes, listedElsewhere);
    if (back) return back;
  }
  return {
    text,
    restored: [],
    lost: `${sentBytes} bytes were sent and ${rebuilt} could be rebuilt`,
  };
}

/**
 * What a file part holds when the recording did not keep the file.
 *
 * @example
 * ```ts
 * import { FILE_PLACEHOLDER } from "./har_input.ts";
 * if (!FILE_PLACEHOLDER.includes("not recorded")) throw new Error();
 * ```
 */
export const FILE_PLACEHOLDER = "(file content not recorded: replace it)";

/**
 * The boundary a multipart content type names, or a fixed one for a body
 * built anew.
 *
 * @example
 * ```ts
 * import { multipartBoundary } from "./har_input.ts";
 * if (multipartBoundary('multipart/form-data; boundary="----x1"') !== "----x1") throw new Error();
 * if (multipartBoundary("multipart/form-data") !== "flowrun-boundary") throw new Error();
 * ```
 */
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
