/**
 * One attempt of an `sse:` step: connect, read events until `until` holds,
 * `count` events came, `wait` (at most the step's timeout) ran out or the
 * server ended the stream, reconnecting with `Last-Event-ID` as often as
 * `reconnects` allows. The outcome's response is the first connection's
 * status and headers with `{events, stopped}` as its JSON body; a server
 * that answers with something else than an event stream gives its body as
 * it came (`answer.ts`).
 *
 * @module
 */
import { resolvePath } from "../../expr/path.ts";
import type { KindCall, KindOutcome } from "../kind.ts";
import { answerOutcome, headersOf, isEventStream } from "./answer.ts";
import { Collected, type Stop } from "./collect.ts";
import { openStream } from "./open.ts";
import type { SseSpec } from "./read.ts";
import { resumed, type SseRequest, sseRequest } from "./request.ts";
import { untilFailure } from "./verdict.ts";
import { Deadline } from "./deadline.ts";

/** The reconnection delay when the stream set none with `retry` (the spec leaves it to the client). */
export const DEFAULT_RETRY_MS = 1_000;

/** Why reading ended, as `$.json.stopped` says it. */
export type Stopped = "until" | "count" | "wait" | "end";

/**
 * Runs one attempt of an `sse:` step.
 *
 * @example
 * ```ts
 * import { attemptSse } from "./attempt.ts";
 * import type { KindCall } from "../kind.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
 *   new Response("data: 1\n\n", { headers: { "content-type": "text/event-stream" } }));
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 * const call = { text: () => url, timeoutMs: 5000, network: () => ({ insecure: false }), maxBodyBytes: 1e6 };
 * const spec = { url: { source: url, parts: [url] }, method: "GET" as const, count: 10, reconnects: 0 };
 * const outcome = await attemptSse(spec, call as unknown as KindCall);
 * if (outcome.response?.body !== '{"events":[{"event":"message","data":1,"id":""}],"stopped":"end"}') {
 *   throw new Error(JSON.stringify(outcome));
 * }
 * await server.shutdown();
 * ```
 */
export async function attemptSse(spec: SseSpec, call: KindCall): Promise<KindOutcome> {
  const built = sseRequest(spec, call);
  if ("badUrl" in built) {
    const request = { method: spec.method, url: built.badUrl, headers: [] };
    const message = `"${built.badUrl}" is not an absolute http or https URL.`;
    return { request, error: { reason: "bad-url", message } };
  }
  // The step's auth (its own or its flow's): headers or a query the first request and each
  // reconnection carry.
  const request = call.authorize ? await call.authorize(built) as SseRequest : built;
  const until = spec.until &&
    resolvePath(
      spec.until,
      (expr) => call.render({ kind: "template", template: { source: "", parts: [expr] } }),
    );
  const ms = Math.min(spec.waitMs ?? call.timeoutMs, call.timeoutMs);
  const deadline = new Deadline(ms, call.signal, call.networkReason);
  try {
    const first = await connect(request, call, deadline);
    if ("error" in first) return { request: shown(request), error: first.error };
    const response = first.response;
    if (!isEventStream(response)) {
      return await answerOutcome(shown(request), response, spec, call).catch((error) => ({
        request: shown(request),
        error: deadline.why(error, `Reading the answer to ${request.method} ${request.url}`),
      }));
    }
    const got = new Collected({ count: spec.count, maxBytes: call.maxBodyBytes, until });
    const ended = await readAll(response, got, request, spec, call, deadline);
    if ("error" in ended) return { request: shown(request), error: ended.error };
    const body = JSON.stringify({ events: got.events, stopped: ended.stopped });
    const failure = spec.until && !got.held
      ? untilFailure(spec.until.source, got.events.length, ended.stopped, deadline.ms, ended.note)
      : undefined;
    return {
      request: shown(request),
      response: { status: response.status, headers: headersOf(response), body },
      ...(failure ? { failures: [failure] } : {}),
    };
  } finally {
    deadline.clear();
  }
}

/** The request as reports show it. */
function shown(request: SseRequest): KindOutcome["request"] {
  return { ...request, headers: [...request.headers] };
}

/** Opens a connection, or the error the attempt ends with. */
async function connect(
  request: SseRequest,
  call: KindCall,
  deadline: Deadline,
): Promise<{ response: Response } | { error: { reason: string; message: string } }> {
  try {
    return { response: await openStream(request, call.network(request.url), deadline.signal) };
  } catch (error) {
    return { error: deadline.why(error, `${request.method} ${request.url}`) };
  }
}

/** How reading ended, or the error the attempt ends with. */
type Ended = { stopped: Stopped; note?: string } | { error: { reason: string; message: string } };

/** Reads the first connection's stream and the reconnections after it. */
async function readAll(
  first: Response,
  got: Collected,
  request: SseRequest,
  spec: SseSpec,
  call: KindCall,
  deadline: Deadline,
): Promise<Ended> {
  let response = first;
  for (let left = spec.reconnects;; left--) {
    const stop = response.body ? await readOne(response.body, got, deadline) : "end";
    if (typeof stop !== "string") return stop;
    if (stop === "too-large") return { error: tooLarge(got, call.maxBodyBytes) };
    if (stop !== "end" || left <= 0) return { stopped: stop };
    const again = await reconnect(got, request, call, deadline);
    if (!(again instanceof Response)) return again;
    response = again;
  }
}

/**
 * The next connection, after the stream's `retry` delay (within the
 * deadline), sending the last event ID seen; or how reading ends when that
 * fails (an answer that is not an event stream ends it, as the spec says).
 */
async function reconnect(
  got: Collected,
  request: SseRequest,
  call: KindCall,
  deadline: Deadline,
): Promise<Response | Ended> {
  if (!await deadline.sleep(got.parser.reconnectMs ?? DEFAULT_RETRY_MS)) {
    return deadline.interrupted ? { error: deadline.why(undefined, "") } : { stopped: "wait" };
  }
  const again = await connect(resumed(request, got.parser.lastEventId), call, deadline);
  if ("error" in again) {
    if (deadline.interrupted) return again;
    if (deadline.expired) return { stopped: "wait" };
    return { stopped: "end", note: `reconnecting failed: ${again.error.message}` };
  }
  if (isEventStream(again.response)) return again.response;
  await again.response.body?.cancel().catch(() => {});
  return { stopped: "end", note: `the reconnection was answered ${again.response.status}` };
}

/** One connection's reading; a broken connection counts as its end, the deadline as `wait`. */
async function readOne(
  body: ReadableStream<Uint8Array>,
  got: Collected,
  deadline: Deadline,
): Promise<Stop | "wait" | { error: { reason: string; message: string } }> {
  try {
    return await got.read(body);
  } catch (error) {
    if (deadline.interrupted) return { error: deadline.why(error, "") };
    if (deadline.expired) return "wait";
    return "end";
  }
}

/** The error of a stream past the run's body limit. */
function tooLarge(got: Collected, max: number): { reason: string; message: string } {
  return {
    reason: "body-too-large",
    message: `The event stream sent more than ${max} bytes (the --max-body limit) after ` +
      `${got.events.length} events; reading stopped there.`,
  };
}
