/**
 * One attempt of an `sse:` step: connect, read events until `until` holds,
 * `count` events came, `wait` (at most the step's timeout) ran out or the
 * server ended the stream, reconnecting with `Last-Event-ID` as often as
 * `reconnects` allows (`connections.ts`). The outcome's response is the first connection's
 * status and headers with `{events, stopped}` as its JSON body; a server
 * that answers with something else than an event stream gives its body as
 * it came (`answer.ts`).
 *
 * @module
 */
import { resolvePath } from "../../expr/path.ts";
import type { KindCall, KindOutcome } from "../kind.ts";
import { answerOutcome, headersOf, isEventStream } from "./answer.ts";
import { Collected } from "./collect.ts";
import { Connections, requestLine } from "./connections.ts";
import { around, told } from "../../model/told.ts";
import { Deadline } from "./deadline.ts";
import type { SseSpec } from "./read.ts";
import { type SseRequest, sseRequest } from "./request.ts";
import { untilFailure } from "./verdict.ts";

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
    const message = told`"${built.badUrl}" is not an absolute http or https URL.`;
    return { request, error: { reason: "bad-url", message } };
  }
  const until = spec.until &&
    resolvePath(
      spec.until,
      (expr) => call.render({ kind: "template", template: { source: "", parts: [expr] } }),
    );
  const ms = Math.min(spec.waitMs ?? call.timeoutMs, call.timeoutMs);
  const deadline = new Deadline(ms, call.signal, call.networkReason);
  const got = new Collected({ count: spec.count, maxBytes: call.maxBodyBytes, until });
  const connections = new Connections(built, call, deadline, got);
  try {
    const request = await connections.ready(built);
    const first = await connections.open(request);
    if ("error" in first) return { request: shown(request), error: first.error };
    const response = first.response;
    if (!isEventStream(response)) {
      return await answerOutcome(shown(request), response, spec, call).catch((error) => ({
        request: shown(request),
        error: deadline.why(error, around("Reading the answer to ", requestLine(request), "")),
      }));
    }
    const ended = await connections.readAll(response, spec.reconnects);
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
