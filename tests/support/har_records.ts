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
