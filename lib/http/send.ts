/**
 * Sending: a {@linkcode ResolvedRequest} → a {@linkcode ReceivedResponse}, or a
 * {@linkcode RequestError}. Redirects are followed only when a step asks (a
 * 302 is a response to assert on), cookies are kept only in a flow's jar
 * (`run/attempt.ts`), and each request has a timeout that covers reading the
 * whole body.
 *
 * @module
 */
import { setOwn } from "../_util/own_property.ts";
import { byteSpill } from "../io/byte_spill.ts";
import {
  DEFAULT_BODY_MEMORY_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  MAX_BODY_MEMORY_BYTES,
} from "./body_limits.ts";
import { Deadlines, requestDeadline } from "./deadlines.ts";
// Only its type: node:https loads when a run is insecure, not at every start.
import type { InsecureVia } from "./insecure.ts";
import { around, told } from "../model/told.ts";
import { networkTold } from "./network_reason.ts";
import { readBody } from "./read_body.ts";
import { MAX_REDIRECTS, redirectTarget } from "./redirect.ts";
import type { ResolvedRequest } from "./request.ts";
import { reasonOf, RequestError } from "./request_error.ts";
import { ReceivedResponse } from "./response.ts";

/** What was known when a request failed: the response head, if it had arrived. */
interface FailureContext {
  response?: Response;
  /** What `onRedirect` threw: the caller's failure (credentials for a hop), not the network's. */
  hook?: { error: unknown };
}

/**
 * Options for {@linkcode send}.
 *
 * @example
 * ```ts
 * import type { SendOptions } from "./send.ts";
 * const options: SendOptions = { timeoutMs: 5000, followRedirects: true };
 * if (options.timeoutMs !== 5000) throw new Error();
 * ```
 */
export interface SendOptions {
  /** Give up after this many milliseconds, body included. */
  timeoutMs: number;
  /** Aborts the request when the run is interrupted. */
  signal?: AbortSignal;
  /**
   * The most body bytes to read, counted after decompression (default
   * {@linkcode DEFAULT_MAX_BODY_BYTES}). A larger body is a
   * {@linkcode RequestError} `body-too-large`, raised as soon as the cap is
   * passed, so memory stays bounded by the cap.
   */
  maxBodyBytes?: number;
  /**
   * The most body bytes held in memory (default
   * {@linkcode DEFAULT_BODY_MEMORY_BYTES}, at most
   * {@linkcode MAX_BODY_MEMORY_BYTES}): a larger body is kept in a temporary
   * file, and the response is {@linkcode ReceivedResponse.spilled}.
   */
  bodyMemoryBytes?: number;
  /** Follow redirects to the final response (default: no; a 3xx is the response). */
  followRedirects?: boolean;
  /**
   * Called at each redirect followed, with the response that redirects and
   * the next request, which it may change (the cookies a jar holds for it,
   * credentials signed anew for it); the hop waits for it.
   */
  onRedirect?: (response: ReceivedResponse, next: ResolvedRequest) => void | Promise<void>;
  /** The runtime's HTTP client to send with (trusted CAs, client certificate, proxy). */
  client?: unknown;
  /** Send without verifying the server's certificate (`--insecure`), this way. */
  insecure?: InsecureVia;
  /**
   * The run's deadlines, on one timer (see `deadlines.ts`); without them the
   * request has deadlines of its own.
   */
  deadlines?: Deadlines;
}

/**
 * Sends a resolved request and reads the whole response. Throws
 * {@linkcode RequestError} when no complete response arrives, or when the
 * body is larger than `maxBodyBytes`. The body is decoded as UTF-8; invalid
 * bytes become U+FFFD.
 *
 * @example
 * ```ts
 * import { send } from "./send.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ ok: true }));
 * const response = await send(
 *   { method: "GET", url: `http://127.0.0.1:${server.addr.port}/`, headers: [] },
 *   { timeoutMs: 5000 },
 * );
 * await server.shutdown();
 * if (response.status !== 200 || response.text !== '{"ok":true}') throw new Error();
 * ```
 *
 * @example A body over the cap
 * ```ts
 * import { send } from "./send.ts";
 * import { RequestError } from "./request_error.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("x".repeat(2048)));
 * try {
 *   await send(
 *     { method: "GET", url: `http://127.0.0.1:${server.addr.port}/`, headers: [] },
 *     { timeoutMs: 5000, maxBodyBytes: 1024 },
 *   );
 *   throw new Error("expected body-too-large");
 * } catch (error) {
 *   if (!(error instanceof RequestError) || error.code !== "body-too-large") throw error;
 * } finally {
 *   await server.shutdown();
 * }
 * ```
 */
export async function send(
  request: ResolvedRequest,
  options: SendOptions,
): Promise<ReceivedResponse> {
  // A request sent on its own (not by a run) has deadlines of its own, closed when it ends.
  const own = options.deadlines ? undefined : new Deadlines();
  const { signal, timedOut, release } = requestDeadline(
    options.timeoutMs,
    options.signal,
    options.deadlines ?? own!,
  );
  const context: FailureContext = {};
  try {
    let current = request;
    for (let hop = 0;; hop++) {
      const received = await sendOnce(current, options, signal, context);
      const next = options.followRedirects
        ? redirectTarget(current, received.status, received.headers.location)
        : undefined;
      if (!next) return received;
      if (hop === MAX_REDIRECTS) {
        throw new RequestError(
          "network",
          told`Request failed: more than ${MAX_REDIRECTS} redirects, the last to "${next.url}".`,
        );
      }
      try {
        await options.onRedirect?.(received, next);
      } catch (error) {
        context.hook = { error };
        throw error;
      } finally {
        received.close();
      }
      current = next;
    }
  } catch (error) {
    if (error instanceof RequestError || error === context.hook?.error) throw error;
    if (options.signal?.aborted) {
      throw new RequestError(
        "interrupted",
        `Interrupted (${reasonOf(options.signal)}) before a response arrived.`,
      );
    }
    if (timedOut()) {
      throw new RequestError("timeout", told`No complete response within ${options.timeoutMs} ms.`);
    }
    throw new RequestError(
      "network",
      around("Request failed: ", networkTold(error, context.response), "."),
    );
  } finally {
    release();
    own?.close();
  }
}

/** One request, one response: a redirect is a response like any other here. */
async function sendOnce(
  request: ResolvedRequest,
  options: SendOptions,
  signal: AbortSignal,
  context: FailureContext,
): Promise<ReceivedResponse> {
  const init: RequestInit & { client?: unknown } = {
    method: request.method,
    headers: request.headers,
    body: request.payload ?? request.body,
    redirect: "manual",
    signal,
  };
  if (options.client) init.client = options.client;
  const response = context.response = options.insecure
    ? await (await import("./insecure.ts")).insecureFetch(
      new Request(request.url, init),
      options.insecure,
    )
    : await fetch(request.url, init);
  // The headers are read once: each call on a Headers object walks and sorts its list again.
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    // Own members only: a server's "constructor" or "__proto__" header is a header like any other.
    setOwn(headers, name, Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value);
  }
  const body = await readBody(
    response,
    headers,
    options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    Math.min(options.bodyMemoryBytes ?? DEFAULT_BODY_MEMORY_BYTES, MAX_BODY_MEMORY_BYTES),
    () => byteSpill({ prefix: "flowrun-body-", strict: true }),
  );
  const received = new ReceivedResponse(
    response.status,
    headers,
    body,
    Object.hasOwn(headers, "set-cookie") ? response.headers.getSetCookie() : [],
  );
  received.url = request.url;
  return received;
}
