/**
 * A step kind's call as the HAR records it, in the shapes devtools and
 * `flowrun convert har` read. A kind reports its call as a request line and
 * the answer its checks read (`lib/kinds/kind.ts`); on the wire it was:
 *
 * - a WebSocket: a `GET` upgraded `101 Switching Protocols`, its frames in
 *   `_webSocketMessages` as Chromium writes them (`har_websocket.ts`);
 * - an event stream: a `GET` (or `POST`) answered with `text/event-stream`,
 *   whose text is the events received, one block each (`event`, `id`,
 *   `retry`, `data`; JSON data written as its JSON), as a browser records a
 *   stream that ended;
 * - a gRPC call: a `POST` of `http(s)://host:port/package.Service/Method`
 *   over HTTP/2 answered 200, the call's status in its `grpc-status` and
 *   `grpc-message` headers (trailers, on the wire) beside the response
 *   metadata, its headers as sent (`application/grpc`), and the messages
 *   decoded, as JSON text, typed `application/grpc+json`
 *   (the request's one message or list, the response's one message, or the
 *   list of a stream): a gRPC status is not an HTTP one, and devtools reads
 *   status 0 as no answer.
 *
 * Each is told by what the kind reported (its request line, the shape of
 * its answer), never by a step's name. Every value stays a string of the
 * entry, so the HAR's masking reaches the frames, the events and metadata.
 *
 * @module
 */
import type { Exchange } from "../model/events.ts";
import type { BodyBudget } from "./har_budget.ts";
import { webSocketExchange, webSocketFields, webSocketFrames } from "./har_websocket.ts";

/** An exchange as it went on the wire, and what the entry says besides. */
export interface OnTheWire {
  exchange: Exchange;
  /** Fields of the entry besides request and response (`_webSocketMessages`). */
  fields?: Record<string, unknown>;
  /** The protocol, when the URL does not tell it (gRPC is HTTP/2). */
  httpVersion?: string;
  /** The reason phrase, where browsers write one (`Switching Protocols`). */
  statusText?: string;
  /** The type of the bodies as the entry holds them, when not what the headers say (gRPC's JSON). */
  mimeType?: string;
  /** An answer read as a stream: its time went on receiving, its first byte came at once. */
  streamed?: boolean;
}

/** The content type of gRPC messages written as JSON (gRPC's JSON codec's name). */
export const GRPC_JSON = "application/grpc+json";

/**
 * `exchange` as it went on the wire: a kind's call rewritten, an HTTP
 * request's as it is.
 *
 * @example
 * ```ts
 * import { onTheWire } from "./har_kinds.ts";
 * import { BodyBudget } from "./har_budget.ts";
 * const wire = onTheWire({
 *   step: "place", attempt: 1, started_at: "2026-01-01T00:00:00.000Z", duration_ms: 4,
 *   request: { method: "GRPC", url: "grpc://127.0.0.1:50051/atlas.Atlas/GetPlace", headers: [], body: "{}", size: 2 },
 *   response: { status: 5, headers: { "grpc-status": "5", "grpc-message": "no" }, set_cookies: [], body: "null", size: 4 },
 * }, new BodyBudget());
 * if (wire.exchange.request.method !== "POST" || wire.exchange.response?.status !== 200) throw new Error();
 * if (wire.exchange.request.url !== "http://127.0.0.1:50051/atlas.Atlas/GetPlace") throw new Error();
 * ```
 */
export function onTheWire(exchange: Exchange, budget: BodyBudget): OnTheWire {
  const { method, url } = exchange.request;
  if (method === "WEBSOCKET" && /^wss?:/i.test(url)) {
    const upgraded = exchange.response?.status === 101;
    return {
      exchange: webSocketExchange(exchange),
      fields: webSocketFields(upgraded ? webSocketFrames(exchange, budget) : { frames: [] }),
      httpVersion: "HTTP/1.1",
      ...(upgraded ? { statusText: "Switching Protocols" } : {}),
    };
  }
  if (method === "GRPC" && /^grpcs?:\/\//i.test(url)) return grpcOnTheWire(exchange);
  const events = eventStreamText(exchange.response);
  if (events !== undefined) {
    const response = { ...exchange.response!, body: events, size: utf8(events) };
    // The step reads the stream with fetch, as Chromium records a page's fetch of one.
    return {
      exchange: { ...exchange, response },
      fields: { _resourceType: "fetch" },
      streamed: true,
    };
  }
  return { exchange };
}

/**
 * The text of an sse step's answer (`{events, stopped}` under
 * `text/event-stream`), `undefined` for any other answer: an HTTP step
 * that read a stream holds its text already.
 */
function eventStreamText(response: Exchange["response"]): string | undefined {
  if (response?.status !== 200) return undefined;
  if (!/^\s*text\/event-stream\s*(;|$)/i.test(response.headers["content-type"] ?? "")) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return undefined;
  }
  const { events, stopped } = (parsed ?? {}) as { events?: unknown; stopped?: unknown };
  if (!Array.isArray(events) || typeof stopped !== "string") return undefined;
  return events.map(eventBlock).join("");
}

/** One event as a block of the stream: its fields, then `data` one line per line. */
function eventBlock(event: Record<string, unknown>): string {
  const lines: string[] = [];
  if (typeof event.id === "string" && event.id !== "") lines.push(`id: ${event.id}`);
  if (typeof event.event === "string" && event.event !== "message") {
    lines.push(`event: ${event.event}`);
  }
  if (typeof event.retry === "number") lines.push(`retry: ${event.retry}`);
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data) ?? "";
  for (const line of data.split(/\r\n|\n|\r/)) lines.push(`data: ${line}`);
  return `${lines.join("\n")}\n\n`;
}

/** A gRPC call as the HTTP/2 request it was, answered 200 with its status in headers. */
function grpcOnTheWire(exchange: Exchange): OnTheWire {
  const { request, response } = exchange;
  const url = request.url.replace(/^grpc(s?):\/\//i, "http$1://");
  const body = request.body ?? "{}";
  const headers: [string, string][] = [
    ["content-type", "application/grpc"],
    ["te", "trailers"],
    ...request.headers,
  ];
  const wire: Exchange = {
    ...exchange,
    request: { method: "POST", url, headers, body, size: utf8(body) },
    ...(response
      ? {
        response: {
          ...response,
          // A status the server sent is an answer: HTTP's 200, the call's own in `grpc-status`.
          status: 200,
          headers: { "content-type": "application/grpc", ...response.headers },
        },
      }
      : {}),
  };
  // HTTP/2 has no reason phrase: the status text stays empty, as browsers write it.
  // The bytes were protobuf: the entry holds the messages decoded, as JSON.
  return {
    exchange: wire,
    httpVersion: "HTTP/2.0",
    mimeType: GRPC_JSON,
    fields: { _resourceType: "fetch" },
  };
}

const encoder = new TextEncoder();

function utf8(text: string): number {
  return encoder.encode(text).byteLength;
}
