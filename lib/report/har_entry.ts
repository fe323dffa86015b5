/**
 * One HAR 1.2 entry from one request on the wire ({@linkcode Exchange}), in
 * the shape browsers export and `flowrun convert har` reads: name/value
 * lists for headers, query and cookies, `postData` with `params` for a form,
 * sizes the HTTP client does not know as -1. What flowrun adds of its own is
 * in `_` fields (`_step`, `_attempt`), as HAR allows.
 *
 * @module
 */
import type { Exchange } from "../model/events.ts";
import type { BodyBudget } from "./har_budget.ts";
import { requestCookies, responseCookies } from "./har_cookies.ts";
import { onTheWire } from "./har_kinds.ts";

/** A HAR name/value pair. */
export type HarPair = { name: string; value: string };

/** A HAR entry, as JSON. */
export type HarEntry = Record<string, unknown>;

/**
 * The entry of `exchange`, on page `pageref`, its bodies kept within
 * `budget` (a cut body says so in a `comment`; `size` stays the whole).
 *
 * @example
 * ```ts
 * import { harEntry } from "./har_entry.ts";
 * import { BodyBudget } from "./har_budget.ts";
 * const entry = harEntry({
 *   step: "login", attempt: 1, started_at: "2026-01-01T00:00:00.000Z", duration_ms: 12,
 *   request: { method: "POST", url: "http://api.test/login?next=%2Fhome", headers: [["content-type", "application/json"]], body: "{}", size: 2 },
 *   response: { status: 200, headers: { "content-type": "application/json" }, set_cookies: ["sid=1; Path=/"], body: "{}", size: 2 },
 * }, "page_1", new BodyBudget());
 * const request = entry.request as { queryString: { value: string }[] };
 * const response = entry.response as { cookies: { name: string }[]; content: { text: string } };
 * if (request.queryString[0].value !== "/home" || response.cookies[0].name !== "sid") throw new Error();
 * if (response.content.text !== "{}" || entry.time !== 12) throw new Error();
 * ```
 */
export function harEntry(recorded: Exchange, pageref: string, budget: BodyBudget): HarEntry {
  // A step kind's call (a WebSocket, an event stream, gRPC) as it went on the wire.
  const wire = onTheWire(recorded, budget);
  const { exchange } = wire;
  const time = exchange.duration_ms;
  const version = wire.httpVersion ?? httpVersion(exchange.request.url);
  const response = exchange.response
    ? harResponse(
      exchange.response,
      budget,
      { version, text: wire.statusText ?? "" },
      wire.mimeType,
    )
    : noResponse();
  return {
    pageref,
    startedDateTime: exchange.started_at,
    time,
    request: harRequest(exchange.request, budget, version, wire.mimeType),
    response,
    cache: {},
    // The client tells no phases: the whole time is the wait (a stream's, the receiving), so the
    // timings add up to `time`; a stream read as it came is no answer held for a later request.
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: wire.streamed ? 0 : time,
      receive: wire.streamed ? time : 0,
    },
    _step: exchange.step,
    _attempt: exchange.attempt,
    ...(exchange.error === undefined ? {} : { _error: exchange.error }),
    ...wire.fields,
  };
}

/**
 * The HTTP version: Deno's client speaks HTTP/1.1 without TLS; over TLS it
 * may agree on HTTP/2 and does not say, so that is left empty.
 */
function httpVersion(url: string): string {
  return /^(http|ws):/.test(url) ? "HTTP/1.1" : "";
}

function harRequest(
  request: Exchange["request"],
  budget: BodyBudget,
  version: string,
  mimeType?: string,
): HarEntry {
  const headers = request.headers.map(([name, value]) => ({ name, value }));
  return {
    method: request.method,
    url: request.url,
    httpVersion: version,
    cookies: requestCookies(request.headers),
    headers,
    queryString: queryOf(request.url),
    ...(request.body === undefined ? {} : { postData: postData(request, budget, mimeType) }),
    headersSize: -1,
    bodySize: request.body === undefined ? 0 : request.size,
  };
}

function queryOf(url: string): HarPair[] {
  if (!URL.canParse(url)) return [];
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
}

function postData(request: Exchange["request"], budget: BodyBudget, mimeType?: string): HarEntry {
  const type = mimeType ??
    request.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1];
  if (request.kind === "multipart") {
    // The fields as sent; a file part as its name, as browsers record uploads.
    return {
      mimeType: type ?? "multipart/form-data",
      params: [...new URLSearchParams(request.body)].map(([name, value]) =>
        value.startsWith("@") ? { name, fileName: value.slice(1) } : { name, value }
      ),
      comment: "A multipart body: its fields, files by name.",
    };
  }
  if (request.kind === "file") {
    return {
      mimeType: type ?? "application/octet-stream",
      text: "",
      comment: `A file body of ${request.size} bytes, not kept.`,
    };
  }
  const kept = budget.keep(request.body ?? "", request.size);
  const form = /^application\/x-www-form-urlencoded\b/i.test(type ?? "");
  return {
    mimeType: type ?? "",
    text: kept.text,
    // A whole form is also its fields, as browsers record it; a cut one's last field is not whole.
    ...(form && !kept.comment
      ? { params: [...new URLSearchParams(kept.text)].map(([name, value]) => ({ name, value })) }
      : {}),
    ...(kept.comment ? { comment: kept.comment } : {}),
  };
}

function harResponse(
  response: NonNullable<Exchange["response"]>,
  budget: BodyBudget,
  status: { version: string; text: string },
  mimeTypeOf?: string,
): HarEntry {
  const headers: HarPair[] = Object.entries(response.headers).map(([name, value]) => ({
    name,
    value,
  }));
  for (const line of response.set_cookies) headers.push({ name: "set-cookie", value: line });
  const mimeType = mimeTypeOf ?? response.headers["content-type"] ?? "";
  return {
    status: response.status,
    // The client does not keep the reason phrase (HTTP/2 has none): empty, as browsers write it then.
    statusText: status.text,
    httpVersion: status.version,
    cookies: responseCookies(response.set_cookies),
    headers,
    content: content(response, mimeType, budget),
    redirectURL: response.headers.location ?? "",
    headersSize: -1,
    bodySize: response.size,
  };
}

function content(
  response: NonNullable<Exchange["response"]>,
  mimeType: string,
  budget: BodyBudget,
): HarEntry {
  if (isBinary(mimeType, response.body)) {
    // The body was decoded as UTF-8 and its bytes are gone: text would be a corrupt copy.
    return { size: response.size, mimeType, comment: "A binary body, not kept." };
  }
  const kept = budget.keep(response.body, response.size);
  return {
    size: response.size,
    mimeType,
    text: kept.text,
    ...(kept.comment ? { comment: kept.comment } : {}),
  };
}

/** A body that is not text: a type that is none, and bytes UTF-8 could not decode. */
function isBinary(mimeType: string, body: string): boolean {
  const textual = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded))/i
    .test(mimeType);
  return !textual && body.includes("\ufffd");
}

/** What a request that got no answer records, as Chrome writes it. */
function noResponse(): HarEntry {
  return {
    status: 0,
    statusText: "",
    httpVersion: "",
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: "x-unknown" },
    redirectURL: "",
    headersSize: -1,
    bodySize: -1,
  };
}
