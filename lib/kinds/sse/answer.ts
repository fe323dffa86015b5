/**
 * A server that answers an `sse:` step with something else than an event
 * stream (a 401 with a JSON error, a 404 page): the step's response is that
 * answer as it came, its body read up to the run's limit, so `status`,
 * headers and `$.json` check it like an HTTP step's.
 *
 * @module
 */
import type { KindCall, KindOutcome } from "../kind.ts";
import type { SseSpec } from "./read.ts";
import { untilFailure } from "./verdict.ts";
import { around, told } from "../../model/told.ts";

/**
 * Whether a response is an event stream: status 200 and `text/event-stream`.
 *
 * @example
 * ```ts
 * import { isEventStream } from "./answer.ts";
 * const ok = new Response("", { headers: { "content-type": "text/event-stream; charset=utf-8" } });
 * if (!isEventStream(ok) || isEventStream(new Response("{}", { status: 401 }))) throw new Error();
 * ```
 */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return response.status === 200 && /^\s*text\/event-stream\s*(;|$)/i.test(type);
}

/**
 * A response's headers by lower-cased name.
 *
 * @example
 * ```ts
 * import { headersOf } from "./answer.ts";
 * if (headersOf(new Response("", { headers: { "X-Id": "7" } }))["x-id"] !== "7") throw new Error();
 * ```
 */
export function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries(response.headers);
}

/**
 * The outcome of a non-stream answer: its status, headers and body text (at
 * most `call.maxBodyBytes`), and, when `until` was asked, its failure.
 *
 * @example
 * ```ts
 * import { answerOutcome } from "./answer.ts";
 * import type { KindCall } from "../kind.ts";
 * const request = { method: "GET", url: "http://x.test/", headers: [] };
 * const call = { maxBodyBytes: 100 } as KindCall;
 * const spec = { url: { source: "", parts: [] }, method: "GET" as const, count: 1, reconnects: 0 };
 * const got = await answerOutcome(request, new Response('{"error":"no"}', { status: 401 }), spec, call);
 * if (got.response?.status !== 401 || got.response.body !== '{"error":"no"}') throw new Error();
 * ```
 */
export async function answerOutcome(
  request: KindOutcome["request"],
  response: Response,
  spec: SseSpec,
  call: KindCall,
): Promise<KindOutcome> {
  const text = await boundedText(response, call.maxBodyBytes);
  if (text === undefined) {
    const message = around(
      "",
      told`The answer (status ${response.status}, not an event stream) was longer than `,
      `${call.maxBodyBytes} bytes (the --max-body limit).`,
    );
    return { request, error: { reason: "body-too-large", message } };
  }
  const type = response.headers.get("content-type") ?? "no content type";
  const failure = spec.until
    ? untilFailure(
      spec.until.source,
      0,
      "answer",
      0,
      told`the server answered ${response.status} with ${type}, not an event stream`,
    )
    : undefined;
  return {
    request,
    response: { status: response.status, headers: headersOf(response), body: text },
    ...(failure ? { failures: [failure] } : {}),
  };
}

/** The body as text, or `undefined` past `max` bytes (reading stops there). */
async function boundedText(response: Response, max: number): Promise<string | undefined> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) return undefined;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}
