/**
 * The HAR side of `convert har`: parses HAR text into plain records with only
 * what the conversion needs. Browsers disagree on the details (Chrome adds
 * `_resourceType` and `_error`, Firefox omits them, hand-written HARs omit
 * `response`, `version` and `creator`), so every field is read defensively
 * and a missing one is an absence, never an exception.
 *
 * Bodies are decoded lazily (`loadBodies` in `har_bodies.ts`): a 100 MB export is
 * mostly images and scripts that are dropped anyway, and base64-decoding them
 * would cost more than parsing the whole file.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { visible } from "../report/terminal.ts";
import { fromParams, postDataText } from "./har_input.ts";
import {
  baseMime,
  isObject,
  type NameValue,
  nameValues,
  parseCookieHeader,
  str,
} from "./_har_fields.ts";
import { METHOD } from "../load/context.ts";
import { UNSENDABLE_METHODS } from "../load/request.ts";
import { plural, pluralWord } from "../_util/plural.ts";
import { urlCredentials } from "./url_credentials.ts";

export type { NameValue } from "./_har_fields.ts";

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
  /**
   * Whether the `Authorization` header was put back from the URL's user part (`url_credentials.ts`):
   * the page's for this one request, which the browser sends only when challenged.
   */
  urlCredentials?: boolean;
  /** Request cookies: `request.cookies`, else parsed from the Cookie header. */
  cookies: NameValue[];
  /** Request body mime type (lower case, no parameters), when there is a body. */
  bodyMime?: string;
  /** Request body text, when recorded. */
  bodyText?: string;
  /** Whether `bodyText` was rebuilt from `postData.params` (no text, or an empty or broken one). */
  bodyFromParams?: boolean;
  /** The request body's bytes when they are not UTF-8 text and the recording holds them all. */
  bodyBytes?: Uint8Array<ArrayBuffer>;
  /** Why the recording holds no bytes of a body that was not UTF-8 text (`har_body_bytes.ts`). */
  bodyLost?: "replaced" | "empty";
  /** Whether `cookies` are all the request sent (a curl command's), never to be filled from a jar. */
  cookiesAsWritten?: boolean;
  /**
   * Cookies the response set: `response.cookies`, else parsed from its
   * `Set-Cookie` headers (one per header, or one per line where a producer
   * joined them with newlines, as chrome-har does).
   */
  setCookies: NameValue[];
  /** Response status; `undefined` when the entry has no response. */
  status?: number;
  /**
   * `convert curl`: the pasted answer follows a sentence introducing it, not the command itself
   * (`curl_answers.ts`); such an answer may be another case's ("If the token is not valid…").
   */
  answerIntroduced?: boolean;
  /**
   * `convert curl`: the docs say in words, naming no status, that the command fails ("this won't
   * work:"; `curl_announced.ts`): its step checks a status of 400 or more.
   */
  failureAnnounced?: boolean;
  /**
   * `convert curl`: the body is sent from a file (the step's `body_file`), so the record holds
   * none of it; never a browser's upload left out of a recording (`correlate/rewrite_body.ts`).
   */
  bodyElsewhere?: boolean;
  /** Response content mime type, lower case without parameters ("" when unknown). */
  mimeType: string;
  /** Chrome's `_resourceType` (xhr, fetch, script, image, websocket, ping, …), lower case. */
  resourceType?: string;
  /** Start time in ms since the epoch, when it parses. */
  started?: number;
  /** Decoded response text, set by `loadBodies` (`har_bodies.ts`). */
  responseText?: string;
  /** Parsed JSON response, set by `loadBodies` when the body is JSON. */
  json?: unknown;
  /** Whether `json` holds a parsed body (JSON `null` is a body too). */
  hasJson: boolean;
  /**
   * A JSON Web Token the answer held, though the recording lost its text
   * (`lost_jwt.ts`): captured from the live answer by the token's own shape.
   */
  lostJwt?: string;
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
  /** `log.creator.name` when present (`flowrun` for a run's `--report-har`). */
  creator?: string;
}

/** Beyond this many bytes the HAR is called huge in the notes. */
const HUGE = 50 * 1024 * 1024;

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
  const log = readLog(text);
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
  const bodies: string[] = [];
  let uncarried = 0;
  log.entries.forEach((entry: unknown, index: number) => {
    const record = isObject(entry) ? toRecord(entry, index) : undefined;
    if (record && dropUnsendableBody(record)) bodies.push(`${record.method} ${record.url.href}`);
    if (record) uncarried += dropUncarried(record);
    // A flow must load and its curl line must be safe to paste: the loader's method rule, here.
    if (record && !sendable(record.method)) badMethods.push(record.method);
    else if (record) records.push(record);
    else invalid++;
  });
  if (badMethods.length > 0) notes.push(badMethodsNote(badMethods));
  if (bodies.length > 0) notes.push(unsendableBodiesNote(bodies));
  if (uncarried > 0) {
    notes.push(
      `${plural(uncarried, "request header or cookie holds", "request headers or cookies hold")} ` +
        "a line break, NUL or a character past Latin-1, which HTTP cannot carry: left out.",
    );
  }
  if (invalid > 0) {
    notes.push(
      `${
        plural(invalid, "entry has", "entries have")
      } no request with an absolute http(s) or ws(s) URL and ${
        pluralWord(invalid, "was", "were")
      } skipped.`,
    );
  }
  const pages = Array.isArray(log.pages) ? log.pages : [];
  const title = isObject(pages[0]) ? str(pages[0].title) : undefined;
  const creator = isObject(log.creator) ? str(log.creator.name) : undefined;
  return {
    records,
    total: log.entries.length,
    invalid,
    badMethods: badMethods.length,
    title,
    creator,
  };
}

/** The HAR's `log`, with its `entries` list; a `bad-har` {@linkcode UsageError} when none. */
function readLog(text: string): Record<string, unknown> & { entries: unknown[] } {
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
  return log as Record<string, unknown> & { entries: unknown[] };
}

/** The note on entries skipped for their method, naming at most three. */
function badMethodsNote(badMethods: string[]): string {
  const n = badMethods.length;
  const shown = [...new Set(badMethods)].slice(0, 3)
    .map((m) => JSON.stringify(visible(m.length > 40 ? `${m.slice(0, 39)}…` : m))).join(", ");
  return `${plural(n, "entry has", "entries have")} a method (${shown}) that is not an HTTP ` +
    `method token or that flowrun cannot send (CONNECT, TRACE, TRACK), and ${
      pluralWord(n, "was", "were")
    } skipped.`;
}

/**
 * Leaves out the body of a GET or HEAD (a recorder other than a browser
 * keeps one, and an entry without a method is read as GET): the HTTP client
 * refuses to send it, so a flow holding it would not load. Whether it did.
 */
function dropUnsendableBody(record: HarRecord): boolean {
  if (record.method !== "GET" && record.method !== "HEAD") return false;
  if (!record.bodyText) return false;
  delete (record.raw.request as Record<string, unknown>).postData;
  record.bodyText = record.bodyMime = undefined;
  record.bodyFromParams = false;
  return true;
}

/** What no header carries: a line break, NUL, a character past Latin-1 (U+FFFD, a BOM). */
const UNCARRIED = /[\r\n\0\u0100-\u{10ffff}]/u;

/**
 * Leaves out the request headers and cookies a recorder wrote with what no
 * HTTP header carries (bytes it could not decode): a flow sending them
 * would not load. How many.
 */
function dropUncarried(record: HarRecord): number {
  const carried = (h: NameValue) => !UNCARRIED.test(h.name) && !UNCARRIED.test(h.value);
  const before = record.headers.length + record.cookies.length;
  record.headers = record.headers.filter(carried);
  record.cookies = record.cookies.filter(carried);
  return before - record.headers.length - record.cookies.length;
}

/** The note on the bodies {@linkcode dropUnsendableBody} left out, naming at most three requests. */
function unsendableBodiesNote(requests: string[]): string {
  const shown = requests.slice(0, 3).map((r) => visible(r.length > 80 ? `${r.slice(0, 79)}…` : r));
  return `${plural(requests.length, "GET or HEAD entry has", "GET or HEAD entries have")} a ` +
    `recorded body (${shown.join(", ")}), which the HTTP client cannot send with that method: ` +
    `left out. Change the step's method to POST if the server needs the body.`;
}

/** Whether a flow may send `method` (upper-case): an RFC 9110 token the HTTP client sends. */
function sendable(method: string): boolean {
  return METHOD.test(method) && !UNSENDABLE_METHODS.has(method);
}

/** One entry as a record; `undefined` when it has no request with an absolute http(s)/ws(s) URL. */
function toRecord(entry: Record<string, unknown>, index: number): HarRecord | undefined {
  const request = entry.request;
  if (!isObject(request)) return undefined;
  const rawUrl = str(request.url);
  if (rawUrl === undefined || !URL.canParse(rawUrl)) return undefined;
  const url = new URL(rawUrl);
  if (!/^(https?|wss?):$/.test(url.protocol)) return undefined;
  const recorded = nameValues(request.headers);
  const headers = urlCredentials(url, recorded);
  const post = isObject(request.postData) ? request.postData : undefined;
  const started = Date.parse(str(entry.startedDateTime) ?? "");
  const response = responseFields(isObject(entry.response) ? entry.response : undefined);
  return {
    index,
    method: (str(request.method) ?? "GET").toUpperCase(),
    url,
    headers,
    ...(headers.length > recorded.length ? { urlCredentials: true } : {}),
    cookies: requestCookies(request, headers),
    setCookies: response.setCookies,
    // Firefox records form bodies only as params, chrome-har JSON bodies too.
    bodyMime: post ? baseMime(str(post.mimeType)) : undefined,
    bodyText: post ? postDataText(post) : undefined,
    bodyFromParams: post ? fromParams(post) : false,
    status: response.status,
    mimeType: response.mimeType,
    resourceType: str(entry._resourceType)?.toLowerCase(),
    started: Number.isFinite(started) ? started : undefined,
    hasJson: false,
    raw: entry,
  };
}

/** Request cookies: `request.cookies`, else parsed from the Cookie header. */
function requestCookies(request: Record<string, unknown>, headers: NameValue[]): NameValue[] {
  const cookies = nameValues(request.cookies);
  if (cookies.length > 0) return cookies;
  const header = headers.find((h) => h.name.toLowerCase() === "cookie");
  return header ? parseCookieHeader(header.value) : cookies;
}

/** What a record keeps of the response: status, content type and the cookies it set. */
function responseFields(
  response: Record<string, unknown> | undefined,
): Pick<HarRecord, "status" | "mimeType" | "setCookies"> {
  const statusValue = response?.status;
  const content = response && isObject(response.content) ? response.content : undefined;
  const headers = nameValues(response?.headers);
  let setCookies = nameValues(response?.cookies);
  if (setCookies.length === 0) {
    setCookies = headers
      .filter((h) => h.name.toLowerCase() === "set-cookie")
      .flatMap((h) => h.value.split("\n"))
      .map((line) => parseCookieHeader(line.split(";")[0])[0])
      .filter((c): c is NameValue => c !== undefined);
  }
  return {
    status: typeof statusValue === "number" && Number.isInteger(statusValue)
      ? statusValue
      : undefined,
    mimeType: baseMime(
      str(content?.mimeType) ??
        headers.find((h) => h.name.toLowerCase() === "content-type")?.value,
    ),
    setCookies,
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
