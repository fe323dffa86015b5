/**
 * What an `sse:` step's map holds, read and checked when the flow loads:
 * every mistake is one positioned problem, before anything is sent.
 *
 * @module
 */
import type { Node } from "yaml";
import type { KindEntry, KindReading } from "../kind.ts";
import { readHeaders } from "./read_headers.ts";
import type { Template, ValueTemplate } from "../../model/template.ts";
import { isConstant } from "../../expr/template.ts";
import {
  type CompiledPath,
  compilePath,
  compileTemplatePath,
  PathSyntaxError,
} from "../../expr/path.ts";

/** The keys an `sse:` map may hold. */
export const SSE_KEYS = [
  "url",
  "method",
  "headers",
  "body",
  "until",
  "count",
  "wait",
  "last_event_id",
  "reconnects",
] as const;

/** The most events read when `count` is not given. */
export const DEFAULT_COUNT = 1_000;

/** An `sse:` step as loaded: compiled templates and plain limits. */
export interface SseSpec {
  url: Template;
  method: "GET" | "POST";
  /** A map of header names to values. */
  headers?: ValueTemplate;
  /** JSON sent with `POST`. */
  body?: ValueTemplate;
  /** Reading stops once this path selects something in `[event]`, the event just received. */
  until?: CompiledPath;
  /** The most events read (all connections together). */
  count: number;
  /** How long to read, in milliseconds (at most the step's timeout); the timeout when absent. */
  waitMs?: number;
  /** `Last-Event-ID` of the first connection. */
  lastEventId?: Template;
  /** How many times a stream the server ends is opened again. */
  reconnects: number;
}

/**
 * Reads the map under `sse:`; `undefined` after problems told through `reading`.
 *
 * @example
 * ```ts
 * import { readSse } from "./read.ts";
 * import type { KindEntry, KindReading } from "../kind.ts";
import { readHeaders } from "./read_headers.ts";
 * import { parseDocument, type Scalar } from "yaml";
 * const url = parseDocument('"http://127.0.0.1:1/events"').contents as Scalar;
 * const reading = {
 *   problem: () => { throw new Error("no problem expected"); },
 *   template: (n: Scalar) => ({ source: String(n.value), parts: [String(n.value)] }),
 * } as unknown as KindReading;
 * const map = new Map<string, KindEntry>([["url", { key: "url", keyNode: url, value: url }]]);
 * const spec = readSse(map, reading, url);
 * if (spec?.method !== "GET" || spec.count !== 1000 || spec.reconnects !== 0) throw new Error();
 * ```
 */
export function readSse(
  map: Map<string, KindEntry>,
  reading: KindReading,
  _node?: Node,
): SseSpec | undefined {
  const at = (key: string) => map.get(key);
  const url = urlOf(at("url"), reading);
  const method = methodOf(at("method"), reading);
  const headers = readHeaders(at("headers"), reading);
  const body = bodyOf(at("body"), method, reading);
  const until = untilOf(at("until"), reading);
  const limits = limitsOf(at, reading);
  if (!url || !method || !limits) return undefined;
  return {
    url,
    method,
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(until ? { until } : {}),
    ...limits,
  };
}

/** The body, sent with POST only. */
function bodyOf(
  entry: KindEntry | undefined,
  method: string | undefined,
  reading: KindReading,
): ValueTemplate | undefined {
  if (!entry) return undefined;
  if (method !== undefined && method !== "POST") {
    reading.problem(
      "conflicting-keys",
      `"body" of an "sse" step is sent with POST, but the method is ${method}.`,
      entry.keyNode,
      "Add method: POST, or remove the body.",
    );
  }
  return reading.value(entry.value);
}

/** `count`, `wait`, `reconnects` and `last_event_id`, with their defaults. */
function limitsOf(
  at: (key: string) => KindEntry | undefined,
  reading: KindReading,
): Pick<SseSpec, "count" | "waitMs" | "reconnects" | "lastEventId"> | undefined {
  const count = at("count") ? reading.integer(at("count")!, '"count"', 1, 100_000) : DEFAULT_COUNT;
  const waitMs = at("wait") ? reading.duration(at("wait")!, '"wait"', 1, 86_400_000) : undefined;
  const resume = at("last_event_id");
  const lastEventId = resume ? reading.template(resume.value, '"last_event_id"') : undefined;
  const again = at("reconnects");
  const reconnects = again ? reading.integer(again, '"reconnects"', 0, 100) : 0;
  if (count === undefined || reconnects === undefined) return undefined;
  return {
    count,
    ...(waitMs === undefined ? {} : { waitMs }),
    ...(lastEventId ? { lastEventId } : {}),
    reconnects,
  };
}

/** The URL: a template; a constant one must be an absolute http or https URL. */
function urlOf(entry: KindEntry | undefined, reading: KindReading) {
  // The loader reports a missing url (the kind's required key) before read is called.
  if (!entry) return undefined;
  const url = reading.template(entry.value, '"url"');
  if (!url || !isConstant(url)) return url;
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(url.source).protocol);
  } catch {
    // Not a URL at all: the problem below.
  }
  if (ok) return url;
  reading.problem(
    "bad-url",
    `"${url.source}" is not an absolute http or https URL.`,
    entry.value,
    "Write the full URL, e.g. ${ENV.BASE_URL}/events or https://api.example.com/events.",
  );
  return undefined;
}

/** `GET` unless told; `POST` for APIs that stream the answer to a request body. */
function methodOf(entry: KindEntry | undefined, reading: KindReading): "GET" | "POST" | undefined {
  if (!entry) return "GET";
  const method = reading.string(entry, '"method"');
  if (method === undefined) return undefined;
  const upper = method.toUpperCase();
  if (upper === "GET" || upper === "POST") return upper;
  reading.problem(
    "bad-method",
    `"${method}" is not a method an "sse" step sends.`,
    entry.value,
    "Use GET (the default) or POST.",
  );
  return undefined;
}

/** The `until` path, compiled now so a syntax error is found before anything is sent. */
function untilOf(entry: KindEntry | undefined, reading: KindReading): CompiledPath | undefined {
  if (!entry) return undefined;
  const template = reading.template(entry.value, '"until"');
  if (!template) return undefined;
  try {
    return isConstant(template)
      ? compilePath(template.source, "body")
      : compileTemplatePath(template, "body");
  } catch (error) {
    if (!(error instanceof PathSyntaxError)) throw error;
    const node = entry.value;
    reading.problem(
      "bad-path",
      error.message,
      node,
      error.hint ?? "Write a filter over the event just received, e.g. \"$[?@.event == 'done']\".",
    );
    return undefined;
  }
}
