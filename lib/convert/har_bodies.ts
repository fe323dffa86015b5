/**
 * The bodies of the records the conversion keeps, decoded lazily after the
 * traffic is selected: a 100 MB export is mostly images and scripts that are
 * dropped anyway, and base64-decoding them would cost more than parsing the
 * whole file. JSON bodies that chrome-har flattened into params are repaired
 * here too.
 *
 * @module
 */
import { isObject, str } from "./_har_fields.ts";
import { postDataOf, recordedBytes } from "./har_body_bytes.ts";
import { type JsonRepair, repairFlattenedJson } from "./har_input.ts";
import { type HarRecord, isJsonMime } from "./har_model.ts";
import { MAX_WALK_DEPTH, parseBody, TooDeepJson } from "./json.ts";
import { plural, pluralWord } from "../_util/plural.ts";
import { codeLists } from "./har_code_lists.ts";
import { noPairsBodies } from "./har_no_pairs.ts";

/**
 * Decodes the response bodies of the records the conversion keeps: base64
 * text is decoded when it is UTF-8 (binary bodies are skipped with a note),
 * JSON is parsed when the mime type says JSON or the body looks like it.
 * Every limit met becomes a note naming the request. `scripts` are the
 * recording's other records, whose scripts are read only when a body
 * rebuilt from pairs needs them (har_code_lists.ts).
 *
 * @example
 * ```ts
 * import { loadBodies } from "./har_bodies.ts";
 * import { parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "https://api.test/a" },
 *   response: { status: 200, content: { mimeType: "application/json", encoding: "base64",
 *     text: btoa('{"ok":true}') } },
 * }] } }), []);
 * loadBodies(har.records, []);
 * if ((har.records[0].json as { ok: boolean }).ok !== true) throw new Error();
 * ```
 */
export function loadBodies(
  records: HarRecord[],
  notes: string[],
  scripts: readonly HarRecord[] = [],
): void {
  for (const r of records) loadResponse(r, notes);
  notes.push(...noPairsBodies(records, sentSize));
  repairBodies(records, notes, () => scriptCode(scripts));
  for (const r of records) {
    readBytes(r);
    if (r.bodyBytes !== undefined) continue;
    if (r.bodyLost !== undefined) {
      notes.push(lostNote(r));
    } else if (r.bodyText === undefined) {
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
 * Sets the request body of `r` from its bytes when it is not UTF-8 text: the bytes when the
 * recording holds them all, else why it does not. A multipart body is left to the uploads
 * (`uploads.ts`), whose file parts are placeholders anyway.
 */
function readBytes(r: HarRecord): void {
  const post = postDataOf(r.raw.request);
  if (post === undefined || r.bodyFromParams || /^multipart\//.test(r.bodyMime ?? "")) return;
  const read = recordedBytes(post, r.headers);
  if (read?.kind === "text") r.bodyText = read.text;
  else if (read?.kind === "bytes") {
    r.bodyBytes = read.bytes;
    r.bodyText = undefined;
  } else if (read?.kind === "lost") r.bodyLost = read.why;
}

/** The loud note for a body whose bytes the recording lost. */
function lostNote(r: HarRecord): string {
  const label = `${r.method} ${r.url.origin}${r.url.pathname}`;
  const what = r.bodyLost === "empty"
    ? "is binary and its bytes are lost (Playwright's embedded HAR keeps no application/octet-stream body)"
    : "is not UTF-8 text and the recording replaced its bad bytes by U+FFFD, so its bytes are lost";
  return `The request body of ${label} ${what}: the step sends a placeholder file instead of ` +
    `mangled bytes. Replace it with the real body, or record again with Playwright's ` +
    `recordHar content "attach" or a DevTools (chrome-har) export, which keep every byte.`;
}

/** Sets the response text (and JSON) of one record; each limit met is a note naming it. */
function loadResponse(r: HarRecord, notes: string[]): void {
  const label = `${r.method} ${r.url.origin}${r.url.pathname}`;
  const response = isObject(r.raw.response) ? r.raw.response : undefined;
  if (!response) {
    notes.push(`${label} has no recorded response: no status or body assertions.`);
    return;
  }
  const text = responseText(r, response, label, notes);
  if (text === undefined) return;
  r.responseText = text;
  if (text.includes("\ufffd")) {
    notes.push(
      `The response body of ${label} holds bytes that were not valid UTF-8 (shown as U+FFFD).`,
    );
  }
  const trimmed = text.trim();
  if ((isJsonMime(r.mimeType) || /^[[{]/.test(trimmed)) && trimmed !== "") {
    readJson(r, trimmed, label, notes);
  }
}

/** The response body as text (base64 decoded); `undefined`, noted, when not recorded or binary. */
function responseText(
  r: HarRecord,
  response: Record<string, unknown>,
  label: string,
  notes: string[],
): string | undefined {
  const content = isObject(response.content) ? response.content : {};
  const text = str(content.text);
  const size = typeof content.size === "number" ? content.size : 0;
  if (text === undefined) {
    if (!hasNoBody(r) && (size > 0 || str(content.comment) || str(response._error))) {
      notes.push(
        `The response body of ${label} is not in the HAR (exported without content?): no body assertions.`,
      );
    }
    return undefined;
  }
  if (str(content.encoding)?.toLowerCase() !== "base64") return text;
  const decoded = decodeBase64Text(text);
  if (decoded === undefined) {
    notes.push(`The response body of ${label} is binary (base64): no body assertions.`);
  }
  return decoded;
}

/** Parses a JSON response body; one that does not parse is noted when it should have. */
function readJson(r: HarRecord, trimmed: string, label: string, notes: string[]): void {
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

/**
 * JSON bodies rebuilt from params (chrome-har) checked against the size the
 * browser sent and the entry's response ({@linkcode repairFlattenedJson}):
 * restored lists make one note, and each body still short of what was sent
 * one note naming it.
 */
function repairBodies(records: HarRecord[], notes: string[], code: () => string): void {
  const restored = new Set<string>();
  const byCode = new Set<string>();
  let repaired = 0;
  const listed = listedKeys(records);
  // An empty list dropped is put back only as a member other requests send as a list.
  const sentListed = listedKeys(records, false);
  for (const r of records) {
    if (!r.bodyFromParams || !isJsonMime(r.bodyMime) || r.bodyText === undefined) continue;
    const fix = withCode(
      repairFlattenedJson(
        r.bodyText,
        sentSize(r),
        r.hasJson ? r.json : undefined,
        (key) => listed.has(key),
        sentListed,
      ),
      r,
      code,
      byCode,
    );
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
      `${plural(repaired, "JSON request body was", "JSON request bodies were")} recorded only as ` +
        `name/value pairs (chrome-har), which turn a one-item list into its item: ${names} ` +
        `${pluralWord(restored.size, "is a list", "are lists")} again, as the size sent and ${
          byCode.size === restored.size
            ? "the page's own script show"
            : byCode.size > 0
            ? "the recording's answers and the page's own script show"
            : "the response show"
        }.`,
    );
  }
}

/** A repair still short of the size sent, read again with the page's scripts (har_code_lists.ts). */
function withCode(
  fix: JsonRepair,
  r: HarRecord,
  code: () => string,
  byCode: Set<string>,
): JsonRepair {
  const size = sentSize(r);
  if (!fix.lost || size === undefined) return fix;
  const members = parseBody(fix.text);
  if (typeof members !== "object" || members === null || Array.isArray(members)) return fix;
  const back = codeLists(members as Record<string, unknown>, size, code());
  for (const k of back?.restored ?? []) byCode.add(k);
  return back ?? fix;
}

/** The scripts' text of each list of records, read once. */
const scriptCache = new WeakMap<readonly HarRecord[], string>();

/** The text of the scripts among `records` (JavaScript answers), read once and only when asked. */
function scriptCode(records: readonly HarRecord[]): string {
  const cached = scriptCache.get(records);
  if (cached !== undefined) return cached;
  const code = records.filter((r) => /javascript|ecmascript/.test(r.mimeType)).map((r) => {
    if (r.responseText === undefined) loadResponse(r, []);
    return r.responseText ?? "";
  }).join("\n;\n");
  scriptCache.set(records, code);
  return code;
}

/**
 * The members the recording holds as a list of two or more items, or of objects, in any
 * response or request body, or as any list (an empty one too) in a response, which no
 * flattening touched: evidence of what a flattened member was (`answers` false: the request
 * bodies only).
 */
function listedKeys(records: HarRecord[], answers = true): Set<string> {
  const keys = new Set<string>();
  const visit = (value: unknown, depth: number, answer: boolean) => {
    if (depth > 8 || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      return value.slice(0, 50).forEach((v) => visit(v, depth + 1, answer));
    }
    for (const [k, v] of Object.entries(value).slice(0, 200)) {
      if (
        Array.isArray(v) && (answer || v.length > 1 || v.some((i) => typeof i === "object"))
      ) keys.add(k);
      visit(v, depth + 1, answer);
    }
  };
  for (const r of records) {
    if (r.hasJson && answers) visit(r.json, 0, true);
    // A body rebuilt from pairs keeps lists of two or more items: evidence too.
    if (r.bodyText === undefined || !isJsonMime(r.bodyMime)) continue;
    try {
      visit(JSON.parse(r.bodyText), 0, false);
    } catch {
      // Not JSON after all: no evidence.
    }
  }
  return keys;
}

/**
 * The size in bytes of the request body the browser sent: `Content-Length`, else `bodySize`.
 * The header counts the bytes on the wire; chrome-har's `bodySize` is the text's length in
 * characters, short of the bytes when the text goes beyond ASCII (n8n's `‘Execute workflow’`).
 *
 * @example
 * ```ts
 * import { sentSize } from "./har_bodies.ts";
 * const r = { raw: { request: { bodySize: 0 } }, headers: [{ name: "Content-Length", value: "230" }] };
 * // deno-lint-ignore no-explicit-any
 * if (sentSize(r as any) !== 230) throw new Error();
 * ```
 */
export function sentSize(r: HarRecord): number | undefined {
  const request = isObject(r.raw.request) ? r.raw.request : {};
  const declared = r.headers.find((h) => h.name.toLowerCase() === "content-length")?.value;
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > 0) {
    return Number(declared);
  }
  return typeof request.bodySize === "number" && request.bodySize > 0
    ? request.bodySize
    : undefined;
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
