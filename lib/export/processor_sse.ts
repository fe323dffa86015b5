/**
 * The processor's SSE exchange, as lib/kinds/sse makes it, with Node's own
 * `fetch` (Node 18 and later, which Artillery 2 needs anyway): the step's
 * method, headers (`accept: text/event-stream` unless given,
 * `last-event-id` when set) and JSON body; the stream read by the WHATWG
 * rules (lib/kinds/sse/event_stream.ts) until `until` holds, `count` events
 * came, `wait` (at most the step's timeout) ran out or the server ended it.
 * The response is the status and headers with `{events, stopped}` as its
 * JSON body; an answer that is not an event stream is given as it came.
 *
 * @module
 */

/**
 * The JavaScript of `sseExchange(spec, timeoutMs, tls)`.
 *
 * @example
 * ```ts
 * import { SSE_SOURCE } from "./processor_sse.ts";
 * if (!SSE_SOURCE.includes("async function sseExchange(spec, timeoutMs, tls)")) throw new Error();
 * ```
 */
export const SSE_SOURCE = `
/** An event-stream reader: decoded text in, the events it completed out (WHATWG rules). */
function eventStream() {
  let pending = "";
  let type = "";
  let data = [];
  let idBuffer = "";
  let retry;
  const out = [];
  const line = (text) => {
    if (text === "") {
      if (data.length) {
        out.push({ event: type || "message", data: parsed(data.join("\\n")), id: idBuffer,
          ...(retry === undefined ? {} : { retry }) });
      }
      type = "";
      data = [];
      retry = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") type = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\\0")) idBuffer = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) retry = Number(value);
  };
  return (chunk) => {
    const text = pending + chunk;
    // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
    const cut = text.endsWith("\\r") ? text.length - 1 : text.length;
    const lines = text.slice(0, cut).split(/\\r\\n|\\r|\\n/);
    pending = lines.pop() + text.slice(cut);
    lines.forEach(line);
    return out.splice(0);
  };
}

/** The request's headers: names lower-cased, accept, last-event-id and content-type as flowrun adds them. */
function sseHeaders(spec) {
  const headers = {};
  for (const [name, value] of Object.entries(spec.headers || {})) {
    if (value !== null && value !== undefined) {
      headers[name.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  headers.accept = headers.accept || "text/event-stream";
  if (spec.lastEventId && !headers["last-event-id"]) headers["last-event-id"] = spec.lastEventId;
  if (spec.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  return headers;
}

/** Reads the stream's events until a bound: why it stopped. */
async function sseRead(body, spec, events) {
  const push = eventStream();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      for (const event of push(done ? decoder.decode() : decoder.decode(value, { stream: true }))) {
        events.push(event);
        if (spec.until && untilHolds(spec.until, event)) return "until";
        if (events.length >= spec.count) return "count";
      }
      if (done) return "end";
      bytes += value.byteLength;
      if (bytes > MAX_BODY_BYTES) {
        throw new Error("The event stream sent more than " + MAX_BODY_BYTES + " bytes (the --max-body limit) after " +
          events.length + " events; reading stopped there.");
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * Node's fetch, or, with the step's TLS options (which fetch does not take)
 * for an https URL, Node's https answering as fetch does: status, headers,
 * the body as a stream.
 */
function sseFetch(url, init, tls) {
  if (!tls || !/^https:/i.test(url)) return fetch(url, init);
  const https = require("node:https");
  const { Readable } = require("node:stream");
  return new Promise((resolve, reject) => {
    const options = { method: init.method, headers: init.headers, signal: init.signal, ...tls };
    const request = https.request(url, options, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const one of [].concat(value)) headers.append(name, one);
      }
      const body = Readable.toWeb(res);
      resolve({ status: res.statusCode, headers, body, text: () => new Response(body).text() });
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

/** One exchange of an sse step. */
async function sseExchange(spec, timeoutMs, tls) {
  const ms = Math.min(spec.waitMs === undefined ? timeoutMs : spec.waitMs, timeoutMs);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const events = [];
  try {
    const response = await sseFetch(spec.url, { method: spec.method, headers: sseHeaders(spec), body,
      signal: controller.signal }, tls);
    const answer = { statusCode: response.status, headers: Object.fromEntries(response.headers),
      setCookies: response.headers.getSetCookie ? response.headers.getSetCookie() : [] };
    const type = response.headers.get("content-type") || "";
    if (response.status !== 200 || !/^\\s*text\\/event-stream\\s*(;|$)/i.test(type)) {
      const text = await response.text();
      return { ...answer, body: text, received: 0, failures: untilFailures(spec, 0, "event",
        " (the server answered " + response.status + " with " + (type || "no content type") + ", not an event stream)") };
    }
    let stopped;
    try {
      stopped = await sseRead(response.body, spec, events);
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      stopped = "wait";
    }
    const why = { until: undefined, count: ' (the "count" limit)', wait: " within " + ms + " ms",
      end: " before the server ended the stream" }[stopped];
    return { ...answer, body: JSON.stringify({ events, stopped }), received: events.length,
      failures: untilFailures(spec, events.length, "event", why) };
  } catch (error) {
    if (controller.signal.aborted) throw new Error("No answer from " + spec.url + " within " + ms + " ms.");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
`;
