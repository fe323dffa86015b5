/**
 * A call's {@linkcode Exchange} as the step's outcome. A status from the
 * server, OK or not, is a response the checks read (`status` the code,
 * 0 = OK); not reaching the server is an error retried like an HTTP
 * network error: UNAVAILABLE (14, gRPC's "try again"), the step's deadline
 * passing (DEADLINE_EXCEEDED, `timeout`), more bytes than `--max-body`
 * (`body-too-large`), an interrupt. When flowrun itself cancels a stream
 * (more than `max_messages`, a message that does not decode) the messages
 * that arrived are the response and a failure says why it stopped.
 *
 * Each sentence is flowrun's words around what it quotes (`told`): the
 * method and type names (from the flow's `.proto` files or the server's
 * reflection), counts and limits are words; the server's status details
 * and the decoder's words are values, masked where the step is told, so a
 * short password (`decode`, `call`) never masks the sentence.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import type { KindFailure, KindOutcome } from "../kind.ts";
import { around, ownWords, told } from "../../model/told.ts";
import type { Exchange } from "./exchange.ts";
import type { MethodCodec } from "./method.ts";

/** What the outcome is told besides the exchange. */
export interface OutcomeContext {
  request: KindOutcome["request"];
  codec: MethodCodec;
  /** When the call had to end, in ms since the epoch. */
  deadline: number;
  timeoutMs: number;
  maxBytes: number;
  maxMessages: number;
}

/**
 * The outcome of one exchange.
 *
 * @example
 * ```ts
 * import { outcomeOf } from "./outcome.ts";
 * import * as grpc from "@grpc/grpc-js";
 * const codec = { name: "p.S/M", responseStream: false } as never;
 * const request = { method: "GRPC", url: "grpc://h:1/p.S/M", headers: [] };
 * const status = { code: 5, details: "no such thing", metadata: new grpc.Metadata() };
 * const got = outcomeOf({ messages: [], bytes: 0, status }, {
 *   request, codec, deadline: Date.now(), timeoutMs: 1, maxBytes: 1, maxMessages: 1,
 * });
 * if (got.response?.status !== 5 || got.response.headers["grpc-message"] !== "no such thing") throw new Error();
 * ```
 */
export function outcomeOf(x: Exchange, ctx: OutcomeContext): KindOutcome {
  const { request, codec } = ctx;
  const error = errorOf(x, ctx);
  if (error) return { request, error };
  const headers = headersOf(x);
  const body = JSON.stringify(codec.responseStream ? x.messages : x.messages[0] ?? null);
  const response = { status: x.status.code, headers, body };
  const failure = failureOf(x, ctx);
  return { request, response, ...(failure ? { failures: [failure] } : {}) };
}

function errorOf(x: Exchange, ctx: OutcomeContext): KindOutcome["error"] | undefined {
  const { code, details } = x.status;
  const what = ctx.codec.name;
  const arrived = `${x.messages.length} message${x.messages.length === 1 ? "" : "s"} had arrived`;
  if (x.stopped === "interrupted") {
    return {
      reason: "interrupted",
      message: ownWords(`The call to ${what} was interrupted (${arrived}).`),
    };
  }
  if (x.stopped === "too-large" || (code === 8 && /larger than max/i.test(details))) {
    return {
      reason: "body-too-large",
      message: ownWords(
        `The response of ${what} held more than ${ctx.maxBytes} bytes (--max-body); ` +
          `flowrun cancelled the call (${arrived}).`,
      ),
    };
  }
  if (code === grpc.status.DEADLINE_EXCEEDED && Date.now() >= ctx.deadline - 5) {
    return {
      reason: "timeout",
      message: ownWords(
        `No end of ${what} within ${ctx.timeoutMs} ms, the step's timeout (${arrived}).`,
      ),
    };
  }
  if (code === grpc.status.UNAVAILABLE) {
    // The server's own words: a value.
    const message = around(`${what} is unavailable (UNAVAILABLE): `, told`${details}`, ".");
    return { reason: "network", message };
  }
  return undefined;
}

function failureOf(
  x: Exchange,
  ctx: OutcomeContext,
): KindFailure | undefined {
  if (x.stopped === "max_messages") {
    return {
      check: "max_messages",
      message: ownWords(
        `The stream of ${ctx.codec.name} brought more than ${ctx.maxMessages} messages ` +
          `(max_messages); flowrun cancelled the call and kept the first ${ctx.maxMessages}.`,
      ),
    };
  }
  if (x.stopped === "decode") {
    const type = ctx.codec.responseType || "the response type";
    // The decoder's words may quote what the server sent: a value.
    return {
      check: "response message",
      message: around(
        `Message ${x.messages.length + 1} from ${ctx.codec.name} does not decode as ${type}: `,
        told`${x.decodeError}`,
        "; flowrun cancelled the call.",
      ),
    };
  }
  return undefined;
}

/**
 * Headers and trailers merged, binary values as base64, and the status as
 * gRPC sends it. grpc-js keeps names lower-cased already; the loop writes
 * each name once (no per-name lists joined) since this runs on every call.
 */
function headersOf(x: Exchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const metadata of [x.headers, x.status.metadata]) {
    if (!metadata) continue;
    const all = metadata.toJSON() as Record<string, (string | Buffer)[]>;
    for (const name in all) {
      for (const v of all[name]) {
        const text = typeof v === "string" ? v : v.toString("base64");
        const known = out[name];
        out[name] = known === undefined ? text : `${known}, ${text}`;
      }
    }
  }
  out["grpc-status"] = String(x.status.code);
  out["grpc-message"] = x.status.details ?? "";
  return out;
}
