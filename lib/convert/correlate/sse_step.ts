/**
 * A recorded event stream as an `sse:` step. A page's `EventSource` (or a
 * `fetch` read as `text/event-stream`) stays open while the journey goes on:
 * sent as a request, the step would wait for a body that never ends and fail
 * at its timeout. Chromium's HAR (Playwright's and DevTools') holds no event
 * of a stream still open when the recording stopped, only its headers; the
 * step then reads the stream for {@linkcode QUIET_READ} and checks its
 * status, as the browser only opened it. A stream that ended holds its
 * events: the step reads as many (bounded by {@linkcode EVENTS_WAIT}).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { type YMap, ymap } from "../yaml_out.ts";

/** How long a step reads a stream whose recording holds no event. */
export const QUIET_READ = "1s";

/** The bound on reading the events a recording holds. */
export const EVENTS_WAIT = "10s";

/**
 * Whether a record is an event stream: Chromium's `eventsource` resource
 * type, or a `text/event-stream` answer.
 *
 * @example
 * ```ts
 * import { isEventStream } from "./sse_step.ts";
 * // deno-lint-ignore no-explicit-any
 * if (!isEventStream({ mimeType: "text/event-stream; charset=utf-8" } as any)) throw new Error();
 * ```
 */
export function isEventStream(r: Pick<HarRecord, "mimeType" | "resourceType">): boolean {
  return r.resourceType === "eventsource" || /^text\/event-stream\b/i.test(r.mimeType);
}

/**
 * The `sse:` map of a step built from an event stream's record (after its
 * URL and headers), or `undefined` when the request cannot be one: an sse
 * step sends `GET`, or `POST` with a JSON body.
 *
 * @example
 * ```ts
 * import { sseMap } from "./sse_step.ts";
 * const r = { method: "GET", responseText: "id: 1\ndata: a\n\nid: 2\ndata: b\n\n" };
 * const step = { method: "GET" };
 * // deno-lint-ignore no-explicit-any
 * const map = sseMap(r as any, step as any)!;
 * if (map.entries.map(([k, v]) => `${k}=${v}`).join() !== "count=2,wait=10s") throw new Error();
 * ```
 */
export function sseMap(r: HarRecord, step: Step): YMap | undefined {
  const json = step.body !== undefined && step.form === undefined &&
    step.multipart === undefined && step.bodyFile === undefined;
  if (r.method !== "GET" && !(r.method === "POST" && json)) return undefined;
  const events = recordedEvents(r.responseText ?? "");
  return ymap([
    ["method", r.method === "POST" ? "POST" : undefined],
    ["body", r.method === "POST" ? step.body : undefined],
    ["count", events > 0 ? events : undefined],
    ["wait", events > 0 ? EVENTS_WAIT : QUIET_READ],
  ]);
}

/** How many events a recorded stream's text holds: blocks with a `data` field. */
function recordedEvents(text: string): number {
  return text.split(/\r\n\r\n|\n\n|\r\r/).filter((block) =>
    block.split(/\r\n|\n|\r/).some((line) => /^data(:|$)/.test(line))
  ).length;
}
