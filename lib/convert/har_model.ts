/**
 * The HAR side of `convert har`: parses HAR text into plain records with only
 * what the conversion needs. Browsers disagree on the details (Chrome adds
 * `_resourceType` and `_error`, Firefox omits them, hand-written HARs omit
 * `response`, `version` and `creator`), so every field is read defensively
 * and a missing one is an absence, never an exception.
 *
 * Bodies are decoded lazily ({@linkcode loadBodies}): a 100 MB export is
 * mostly images and scripts that are dropped anyway, and base64-decoding them
 * would cost more than parsing the whole file.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { visible } from "../report/terminal.ts";
import { fieldText, fromParams, postDataText, repairFlattenedJson } from "./har_input.ts";
import { METHOD } from "../load/context.ts";
import { UNSENDABLE_METHODS } from "../load/request.ts";
import { MAX_WALK_DEPTH, parseBody, TooDeepJson } from "./model.ts";

/** One header or cookie as HAR writes it. */
export interface NameValue {
  name: string;
  value: string;
}

/** One HAR entry, normalised. */
export interface HarRecord {
  /** Position in `log.entries`. */
  index: number;
  /** Upper-case method. */
  method: string;
  /** The parsed URL; entries whose URL does not parse are not records. */
  url: URL;
  /** Request headers in recorded order. */
  headers: NameValue[];
  /** Request cookies: `request.cookies`, else parsed from the Cookie header. */
  cookies: NameValue[];
  /** Request body mime type (lower case, no parameters), when there is a body. */
  bodyMime?: string;
  /** Request body text, when recorded. */
  bodyText?: string;
  /** Whether `bodyText` was rebuilt from `postData.params` (no text, or an empty or broken one). */
  bodyFromParams?: boolean;
  /**
   * Cookies the response set: `response.cookies`, else parsed from its
   * `Set-Cookie` headers (one per header, or one per line where a producer
   * joined them with newlines, as chrome-har does).
   */
  setCookies: NameValue[];
  /** Response status; `undefined` when the entry has no response. */
  status?: number;
  /** Response content mime type, lower case without parameters ("" when unknown). */
  mimeType: string;
  /** Chrome's `_resourceType` (xhr, fetch, script, image, websocket, ping, …), lower case. */
  resourceType?: string;
  /** Start time in ms since the epoch, when it parses. */
  started?: number;
  /** Decoded response text, set by {@linkcode loadBodies}. */
  responseText?: string;
  /** Parsed JSON response, set by {@linkcode loadBodies} when the body is JSON. */
  json?: unknown;
  /** Whether `json` holds a parsed body (JSON `null` is a body too). */
  hasJson: boolean;
  /** The raw entry, for the lazy body decoding. */
  raw: Record<string, unknown>;
}

/** The parsed HAR. */
export interface ParsedHar {
  records: HarRecord[];
  /** Number of entries in the file, records or not. */
  total: number;
  /** Entries that are not records (no request with an absolute http(s)/ws(s) URL). */
  invalid: number;
  /** Entries skipped for their method: not an HTTP token, or one flowrun cannot send. */
  badMethods: number;
  /** `log.pages[0].title` when present. */
  title?: string;
}

/** Beyond this many bytes the HAR is called huge in the notes. */
const HUGE = 50 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown): string | undefined => typeof v === "string" ? v : undefined;

/** Lower-case mime type without parameters. */
function baseMime(value: string | undefined): string {
  return (value ?? "").split(";")[0].trim().toLowerCase();
}

function nameValues(list: unknown): NameValue[] {
  if (!Array.isArray(list)) return [];
  const out: NameValue[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const name = str(item.name);
    if (name === undefined || name === "") continue;
    const value = item.value;
    out.push({
      name,
      value: fieldText(value),
    });
  }
  return out;
}

/** Parses `a=1; b=2` into cookies (the value keeps any `=` it holds). */
function parseCookieHeader(value: string): NameValue[] {
  const out: NameValue[] = [];
  for (const part of value.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    out.push({ name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() });
  }
  return out;
}

/**
 * Parses HAR text. Throws {@linkcode UsageError} `bad-har` when it is not
 * JSON or has no `log.entries` list; notes (a huge file, unparsable URLs) go
 * into `notes`.
 *
 * @example
 * ```ts
 * import { parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "get", url: "https://api.test/items" } },
 * ] } }), []);
 * if (har.records[0].method !== "GET" || har.records[0].status !== undefined) throw new Error();
 * ```
 */
export function parseHar(text: string, notes: string[]): ParsedHar {
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    // The parser quotes the input, which may hold control bytes: show them escaped.
    const reason = visible((error as Error).message.split("\n")[0].replace(/\.$/, ""));
    throw new UsageError(
      "bad-har",
      `The HAR file is not JSON: ${reason}.`,
      'Export it from the browser\'s network panel with "Save all as HAR" (a .har file is JSON).',
    );
  }
  const log = isObject(data) ? data.log : undefined;
  if (!isObject(log) || !Array.isArray(log.entries)) {
    throw new UsageError(
      "bad-har",
      'The file is JSON but not a HAR: it has no "log.entries" list.',
      'Export it from the browser\'s network panel with "Save all as HAR".',
    );
  }
  if (text.length > HUGE) {
    notes.push(
      `The HAR is large (${
        Math.round(text.length / 1024 / 1024)
      } MB); bodies of dropped entries were not read.`,
    );
  }
  const records: HarRecord[] = [];
  let invalid = 0;
  const badMethods: string[] = [];
  log.entries.forEach((entry: unknown, index: number) => {
    const record = isObject(entry) ? toRecord(entry, index) : undefined;
    // A flow must load and its curl line must be safe to paste: the loader's method rule, here.
    if (record && !sendable(record.method)) badMethods.push(record.method);
    else if (record) records.push(record);
    else invalid++;
  });
  if (badMethods.length > 0) {
    const n = badMethods.length;
    const shown = [...new Set(badMethods)].slice(0, 3)
      .map((m) => JSON.stringify(visible(m.length > 40 ? `${m.slice(0, 39)}…` : m))).join(", ");
    notes.push(
      `${n} entr${n === 1 ? "y has" : "ies have"} a method (${shown}) that is not an HTTP ` +
        `method token or that flowrun cannot send (CONNECT, TRACE, TRACK), and ${
          n === 1 ? "was" : "were"
        } skipped.`,
    );
  }
  if (invalid > 0) {
    notes.push(
      `${invalid} entr${
        invalid === 1 ? "y has" : "ies have"
      } no request with an absolute http(s) or ws(s) URL and ${
        invalid === 1 ? "was" : "were"
      } skipped.`,
    );
  }
  const pages = Array.isArray(log.pages) ? log.pages : [];
  const title = isObject(pages[0]) ? str(pages[0].title) : undefined;
  return { records, total: log.entries.length, invalid, badMethods: badMethods.length, title };
}

/** Whether a flow may send `method` (upper-case): an RFC 9110 token the HTTP client sends. */
function sendable(method: string): boolean {
  return METHOD.test(method) && !UNSENDABLE_METHODS.has(method);
}

function toRecord(entry: Record<string, unknown>, index: number): HarRecord | undefined {
  const request = entry.request;
  if (!isObject(request)) return undefined;
  const rawUrl = str(request.url);
  if (rawUrl === undefined || !URL.canParse(rawUrl)) return undefined;
  const url = new URL(rawUrl);
  if (!/^(https?|wss?):$/.test(url.protocol)) return undefined;
  const headers = nameValues(request.headers);
  let cookies = nameValues(request.cookies);
  if (cookies.length === 0) {
    const header = headers.find((h) => h.name.toLowerCase() === "cookie");
    if (header) cookies = parseCookieHeader(header.value);
  }
  const post = isObject(request.postData) ? request.postData : undefined;
  // Firefox records form bodies only as params, chrome-har JSON bodies too.
  const bodyText = post ? postDataText(post) : undefined;
  const bodyMime = post ? baseMime(str(post.mimeType)) : undefined;
  const response = isObject(entry.response) ? entry.response : undefined;
  const statusValue = response?.status;
  const status = typeof statusValue === "number" && Number.isInteger(statusValue)
    ? statusValue
    : undefined;
  const content = response && isObject(response.content) ? response.content : undefined;
  const mimeType = baseMime(
    str(content?.mimeType) ??
      nameValues(response?.headers).find((h) => h.name.toLowerCase() === "content-type")?.value,
  );
  let setCookies = nameValues(response?.cookies);
  if (setCookies.length === 0) {
    setCookies = nameValues(response?.headers)
      .filter((h) => h.name.toLowerCase() === "set-cookie")
      .flatMap((h) => h.value.split("\n"))
      .map((line) => parseCookieHeader(line.split(";")[0])[0])
      .filter((c): c is NameValue => c !== undefined);
  }
  const started = Date.parse(str(entry.startedDateTime) ?? "");
  const resourceType = str(entry._resourceType)?.toLowerCase();
  return {
    index,
    method: (str(request.method) ?? "GET").toUpperCase(),
    url,
    headers,
    cookies,
    setCookies,
    bodyMime: post ? bodyMime : undefined,
    bodyText,
    bodyFromParams: post ? fromParams(post) : false,
    status,
    mimeType,
    resourceType,
    started: Number.isFinite(started) ? started : undefined,
    hasJson: false,
    raw: entry,
  };
}

/**
 * Whether a mime type is JSON (`application/json`, `application/problem+json`, …).
 *
 * @example
 * ```ts
 * import { isJsonMime } from "./har_model.ts";
 * if (!isJsonMime("application/vnd.api+json") || isJsonMime("text/html")) throw new Error();
 * ```
 */
export function isJsonMime(mime: string | undefined): boolean {
  return mime !== undefined && /(^|[/+])json$/.test(mime);
}

/**
 * Decodes the response bodies of the records the conversion keeps: base64
 * text is decoded when it is UTF-8 (binary bodies are skipped with a note),
 * JSON is parsed when the mime type says JSON or the body looks like it.
 * Every limit met becomes a note naming the request.
 *
 * @example
 * ```ts
 * import { loadBodies, parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "https://api.test/a" },
 *   response: { status: 200, content: { mimeType: "application/json", encoding: "base64",
 *     text: btoa('{"ok":true}') } },
 * }] } }), []);
 * loadBodies(har.records, []);
 * if ((har.records[0].json as { ok: boolean }).ok !== true) throw new Error();
 * ```
 */
export function loadBodies(records: HarRecord[], notes: string[]): void {
  for (const r of records) {
    const label = `${r.method} ${r.url.origin}${r.url.pathname}`;
    const response = isObject(r.raw.response) ? r.raw.response : undefined;
    if (!response) {
      notes.push(`${label} has no recorded response: no status or body assertions.`);
      continue;
    }
    const content = isObject(response.content) ? response.content : {};
    let text = str(content.text);
    const size = typeof content.size === "number" ? content.size : 0;
    if (text === undefined) {
      if (hasNoBody(r)) continue;
      if (size > 0 || str(content.comment) || str(response._error)) {
        notes.push(
          `The response body of ${label} is not in the HAR (exported without content?): no body assertions.`,
        );
      }
      continue;
    }
    if (str(content.encoding)?.toLowerCase() === "base64") {
      text = decodeBase64Text(text);
      if (text === undefined) {
        notes.push(`The response body of ${label} is binary (base64): no body assertions.`);
        continue;
      }
    }
    r.responseText = text;
    if (text.includes("\ufffd")) {
      notes.push(
        `The response body of ${label} holds bytes that were not valid UTF-8 (shown as U+FFFD).`,
      );
    }
    const trimmed = text.trim();
    if (isJsonMime(r.mimeType) || /^[[{]/.test(trimmed)) {
      if (trimmed === "") continue;
      try {
        r.json = parseBody(trimmed);
        r.hasJson = true;
      } catch (error) {
        if (error instanceof TooDeepJson) {
          notes.push(
            `The response body of ${label} nests deeper than ${MAX_WALK_DEPTH} levels: it is not read, so no body assertions.`,
          );
        } else if (isJsonMime(r.mimeType)) {
          notes.push(
            `The response body of ${label} is not valid JSON (truncated?): no body assertions.`,
          );
        }
      }
    }
  }
  repairBodies(records, notes);
  for (const r of records) {
    if (r.bodyText === undefined) {
      const post = isObject(r.raw.request) && isObject(r.raw.request.postData);
      if (post) {
        notes.push(
          `The request body of ${r.method} ${r.url.origin}${r.url.pathname} is not in the HAR: sent without a body.`,
        );
      }
    } else if (r.bodyText.includes("\ufffd")) {
      notes.push(
        `The request body of ${r.method} ${r.url.origin}${r.url.pathname} holds bytes that were not valid UTF-8.`,
      );
    }
  }
}

/**
 * JSON bodies rebuilt from params (chrome-har) checked against the size the
 * browser sent and the entry's response ({@linkcode repairFlattenedJson}):
 * restored lists make one note, and each body still short of what was sent
 * one note naming it.
 */
function repairBodies(records: HarRecord[], notes: string[]): void {
  const restored = new Set<string>();
  let repaired = 0;
  for (const r of records) {
    if (!r.bodyFromParams || !isJsonMime(r.bodyMime) || r.bodyText === undefined) continue;
    const request = isObject(r.raw.request) ? r.raw.request : {};
    const declared = r.headers.find((h) => h.name.toLowerCase() === "content-length")?.value;
    const sent = typeof request.bodySize === "number" && request.bodySize > 0
      ? request.bodySize
      : declared !== undefined && /^\d+$/.test(declared.trim())
      ? Number(declared)
      : undefined;
    const fix = repairFlattenedJson(r.bodyText, sent, r.hasJson ? r.json : undefined);
    if (fix.restored.length > 0) {
      r.bodyText = fix.text;
      repaired++;
      for (const k of fix.restored) restored.add(k);
    } else if (fix.lost) {
      notes.push(
        `The request body of ${r.method} ${r.url.origin}${r.url.pathname} was recorded only as ` +
          `name/value pairs (chrome-har), which lose JSON lists: ${fix.lost}. A one-item list ` +
          `is written as its item and an empty list is missing: check the step's body.`,
      );
    }
  }
  if (repaired > 0) {
    const names = [...restored].map((k) => JSON.stringify(k)).join(", ");
    notes.push(
      `${repaired} JSON request bod${repaired === 1 ? "y was" : "ies were"} recorded only as ` +
        `name/value pairs (chrome-har), which turn a one-item list into its item: ${names} ` +
        `${
          restored.size === 1 ? "is a list" : "are lists"
        } again, as the size sent and the response show.`,
    );
  }
}

/** HEAD, 1xx, 204, 205 and 304 responses have no body, whatever size a producer recorded. */
function hasNoBody(r: HarRecord): boolean {
  const status = r.status ?? 0;
  return r.method === "HEAD" || (status >= 100 && status < 200) || [204, 205, 304].includes(status);
}

/** Base64 → UTF-8 text, or `undefined` when it is not base64 of UTF-8 text. */
function decodeBase64Text(text: string): string | undefined {
  try {
    const binary = atob(text.replace(/\s+/g, ""));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // Control characters other than whitespace mean binary that happens to be valid UTF-8.
    // deno-lint-ignore no-control-regex
    return /[\u0000-\u0008\u000e-\u001f]/.test(decoded) ? undefined : decoded;
  } catch {
    return undefined;
  }
}
