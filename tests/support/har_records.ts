/**
 * Records of a hand-made HAR, parsed and with their bodies loaded, for the
 * tests of the conversion's stages.
 */
import { loadBodies } from "../../lib/convert/har_bodies.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { parseHar } from "../../lib/convert/har_model.ts";

/** One entry: a request and, unless `status` is undefined, a JSON response. */
export interface EntrySpec {
  method?: string;
  url: string;
  headers?: [string, string][];
  body?: string;
  mime?: string;
  status?: number;
  json?: unknown;
  html?: string;
  setCookies?: [string, string][];
}

/**
 * A JSON-RPC call as Deluge's web UI sends it (`POST /json`, `{method, params: [], id}`),
 * answered `{result, error: null, id}`.
 *
 * @example
 * ```ts
 * import { rpcCall } from "./har_records.ts";
 * if (JSON.parse(rpcCall("web.connected", 2, false).body!).id !== 2) throw new Error();
 * ```
 */
export function rpcCall(method: string, id: number, result: unknown): EntrySpec {
  return {
    method: "POST",
    url: "http://127.0.0.1:8112/json",
    mime: "application/json",
    body: JSON.stringify({ method, params: [], id }),
    json: { result, error: null, id },
  };
}

/** The HAR of `specs`, as text. */
export function harOf(specs: EntrySpec[]): string {
  return JSON.stringify({
    log: {
      entries: specs.map((e, i) => ({
        startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        request: {
          method: e.method ?? "GET",
          url: e.url,
          headers: (e.headers ?? []).map(([name, value]) => ({ name, value })),
          ...(e.body === undefined
            ? {}
            : { postData: { mimeType: e.mime ?? "application/json", text: e.body } }),
        },
        response: {
          status: e.status ?? 200,
          cookies: (e.setCookies ?? []).map(([name, value]) => ({ name, value })),
          content: e.html !== undefined
            ? { mimeType: "text/html", text: e.html }
            : { mimeType: "application/json", text: JSON.stringify(e.json ?? {}) },
        },
      })),
    },
  });
}

/** The records of `specs`, bodies loaded. */
export function recordsOf(specs: EntrySpec[]): HarRecord[] {
  const { records } = parseHar(harOf(specs), []);
  loadBodies(records, []);
  return records;
}

/**
 * The tail of a full HAR entry (every field a strict reader asks for) whose answer is the JSON
 * `text`: its `response`, `cache` and `timings`, to spread into the entry.
 */
export function jsonAnswer(
  status: number,
  statusText: string,
  headers: { name: string; value: string }[],
  text: string,
): { response: Record<string, unknown>; cache: Record<never, never>; timings: object } {
  return {
    response: {
      status,
      statusText,
      httpVersion: "HTTP/1.1",
      headers,
      cookies: [],
      content: { size: text.length, mimeType: "application/json", text },
      redirectURL: "",
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

/**
 * A full HAR entry as chrome-har records a JSON call: the body `sent` kept only as its top-level
 * pairs (a list flattened into one pair per item, an empty one into none) while `bodySize` is
 * the bytes the browser sent, and a JSON answer `answer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chromeHarEntry } from "./har_records.ts";
 * const e = chromeHarEntry("POST", "http://127.0.0.1/x", { ok: true }, { a: [1, 2], b: [] });
 * assert.deepEqual(e.request.postData?.params, [{ name: "a", value: 1 }, { name: "a", value: 2 }]);
 * assert.equal(e.request.bodySize, '{"a":[1,2],"b":[]}'.length);
 * ```
 */
export function chromeHarEntry(
  method: string,
  url: string,
  answer: unknown,
  sent?: Record<string, unknown>,
) {
  const text = JSON.stringify(answer);
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      headers: sent ? [{ name: "Content-Type", value: "application/json" }] : [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      // The bytes the browser sent; chrome-har keeps only the top-level pairs, a list flattened.
      bodySize: sent ? JSON.stringify(sent).length : 0,
      ...(sent
        ? {
          postData: {
            mimeType: "application/json",
            params: Object.entries(sent).flatMap(([name, v]) =>
              (Array.isArray(v) ? v : [v]).map((value) => ({ name, value }))
            ),
          },
        }
        : {}),
    },
    ...jsonAnswer(200, "OK", [{ name: "Content-Type", value: "application/json" }], text),
  };
}

/**
 * The `request` of a full HAR entry (every field a strict reader asks for): `body`, when there
 * is one, sent as `mime` with its content type.
 *
 * @example
 * ```ts
 * import { fullRequest } from "./har_records.ts";
 * const r = fullRequest("POST", "http://127.0.0.1/items", '{"a":1}');
 * if (r.bodySize !== 7 || r.postData?.mimeType !== "application/json") throw new Error();
 * if (fullRequest("GET", "http://127.0.0.1/items").headers.length !== 0) throw new Error();
 * ```
 */
export function fullRequest(method: string, url: string, body?: string, mime = "application/json") {
  return {
    method,
    url,
    httpVersion: "HTTP/1.1",
    headers: body ? [{ name: "content-type", value: mime }] : [],
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: body?.length ?? 0,
    ...(body ? { postData: { mimeType: mime, text: body } } : {}),
  };
}

/**
 * A full HAR entry: `body` sent as `mime` (none when undefined), answered 200 with `answer`
 * as `answerMime`, or else a page when it starts with `<` and JSON otherwise.
 *
 * @example
 * ```ts
 * import { fullExchange } from "./har_records.ts";
 * const e = fullExchange("POST", "http://api.test/items", '{"a":1}', '{"id":1}');
 * if (e.request.postData?.mimeType !== "application/json") throw new Error();
 * if (e.response.content.mimeType !== "application/json") throw new Error();
 * ```
 */
export function fullExchange(
  method: string,
  url: string,
  body: string | undefined,
  answer: string,
  mime = "application/json",
  answerMime?: string,
) {
  const mimeType = answerMime ?? (answer.startsWith("<") ? "text/html" : "application/json");
  return {
    startedDateTime: "2026-11-27T02:00:00.000Z",
    time: 1,
    request: fullRequest(method, url, body, mime),
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: mimeType }],
      cookies: [],
      content: { size: answer.length, mimeType, text: answer },
      redirectURL: "",
      headersSize: -1,
      bodySize: answer.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

/**
 * A full HAR entry of a server-rendered site: `body` posted as a form (none when undefined),
 * answered 200 with `answer`, a page when it starts with `<`, else JSON.
 *
 * @example
 * ```ts
 * import { formExchange } from "./har_records.ts";
 * const e = formExchange("POST", "http://wiki.test/api", "a=1", '{"ok":true}');
 * if (e.response.content.mimeType !== "application/json") throw new Error();
 * if (e.request.postData?.mimeType !== "application/x-www-form-urlencoded") throw new Error();
 * ```
 */
export function formExchange(
  method: string,
  url: string,
  body: string | undefined,
  answer: string,
) {
  return fullExchange(method, url, body, answer, "application/x-www-form-urlencoded");
}
