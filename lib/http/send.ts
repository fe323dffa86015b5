/**
 * HTTP: a step's request spec → resolved request → received response.
 *
 * Redirects are followed only when a step asks (a 302 is a response to
 * assert on), cookies are kept only in a flow's jar (`run/attempt.ts`), and
 * each request has a timeout that covers reading the whole body.
 *
 * @module
 */
import { Deadlines } from "./deadlines.ts";
import { setOwn } from "../_util/own_property.ts";
import { evaluate, render, type Scope, toText, type ValueTemplate } from "../expr/template.ts";
import type { MultipartPart, RequestSpec } from "../model/flow.ts";
import { ReceivedResponse, type SpilledBody } from "./response.ts";
import type { ByteSpill } from "../model/spill.ts";
import { byteSpill } from "../io/io.ts";
import { MAX_REDIRECTS, redirectTarget } from "./redirect.ts";
import { renderUrl } from "./url.ts";
// Only its type: node:https loads when a run is insecure, not at every start.
import type { InsecureVia } from "./insecure.ts";

/** A request with every expression resolved. */
export interface ResolvedRequest {
  method: string;
  url: string;
  /** In flow order, names as written. */
  headers: [string, string][];
  /** The body as text: what is sent, or for a multipart or file body what reports show of it. */
  body?: string;
  /** What is sent instead of `body` for a multipart or file body. */
  payload?: FormData | Uint8Array<ArrayBuffer>;
  /** `multipart` when `body` lists a multipart body's fields, form-encoded, files as `@name`. */
  bodyKind?: "multipart" | "file";
}

/**
 * Why a request got no response: network failure, timeout, or an unusable URL.
 *
 * @example
 * ```ts
 * import { RequestError, resolveRequest } from "./send.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * try {
 *   resolveRequest({ method: "GET", url: parseTemplate("/relative"), headers: [] }, scope);
 *   throw new Error("expected a bad URL");
 * } catch (error) {
 *   if (!(error instanceof RequestError) || error.code !== "bad-url") throw error;
 * }
 * ```
 */
export class RequestError extends Error {
  readonly code: "network" | "timeout" | "bad-url" | "interrupted" | "body-too-large";
  constructor(code: RequestError["code"], message: string) {
    super(message);
    this.name = "RequestError";
    this.code = code;
  }
}

/**
 * The longest URL, and the most header text, a request may have: 64 KiB.
 * Servers refuse far less (8 to 16 KiB is usual).
 *
 * @example
 * ```ts
 * import { MAX_REQUEST_HEAD } from "./send.ts";
 * if (MAX_REQUEST_HEAD !== 65_536) throw new Error();
 * ```
 */
export const MAX_REQUEST_HEAD = 65_536;

/**
 * Resolves a request spec's templates. A body that resolves to anything but
 * a string is sent as JSON, with `content-type: application/json` unless the
 * flow sets a content type (header names compare case-insensitively).
 * Throws `ExpressionError` or {@linkcode RequestError} (`bad-url`).
 *
 * @example
 * ```ts
 * import { resolveRequest } from "./send.ts";
 * import { compileValue, parseTemplate } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map([["id", 7]]), steps: new Map(), runId: "r" };
 * const request = resolveRequest({
 *   method: "POST",
 *   url: parseTemplate("http://api.test/items/${vars.id}"),
 *   headers: [],
 *   body: compileValue({ id: "${vars.id}" }),
 * }, scope);
 * if (request.url !== "http://api.test/items/7" || request.body !== '{"id":7}') throw new Error();
 * if (request.headers[0].join(": ") !== "content-type: application/json") throw new Error();
 * ```
 */
export function resolveRequest(spec: RequestSpec, scope: Scope): ResolvedRequest {
  const url = renderUrl(
    spec.url,
    scope,
    spec.query?.map(([name, value]) => [name, render(value, scope)]),
  );
  // A captured value of megabytes in a URL or header cannot be sent (the runtime refuses the
  // URL, a server the header block), and quoted whole in every line that shows the request it
  // made reports of tens of megabytes, with JUnit text nodes libxml2 refuses to read.
  if (url.length > MAX_REQUEST_HEAD) {
    throw new RequestError(
      "bad-url",
      `The URL is ${url.length.toLocaleString("en-US")} characters long, more than the ` +
        `${MAX_REQUEST_HEAD / 1024} KiB flowrun sends ("${url.slice(0, 120)}…"): a value ` +
        "interpolated into it is far larger than a URL holds; send it in the body.",
    );
  }
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    throw new RequestError("bad-url", `"${url}" is not an absolute http or https URL.`);
  }
  const headers: [string, string][] = spec.headers.map((
    [name, value],
  ) => [name, toText(evaluate(value, scope))]);
  if (spec.cookies) {
    const pairs = spec.cookies.map(([name, value]) => `${name}=${toText(evaluate(value, scope))}`);
    addCookies(headers, pairs.join("; "));
  }
  const headBytes = headers.reduce((n, [name, value]) => n + name.length + value.length + 4, 0);
  if (headBytes > MAX_REQUEST_HEAD) {
    throw new RequestError(
      "bad-url",
      `The request's headers are ${headBytes.toLocaleString("en-US")} characters long, more ` +
        `than the ${MAX_REQUEST_HEAD / 1024} KiB flowrun sends: a value interpolated into one ` +
        "is far larger than a header holds; send it in the body.",
    );
  }
  const request = { method: spec.method, url, headers };
  const hasType = () => headers.some(([name]) => name.toLowerCase() === "content-type");
  if (spec.form) {
    if (!hasType()) headers.push(["content-type", "application/x-www-form-urlencoded"]);
    return { ...request, body: formText(spec.form, scope) };
  }
  if (spec.multipart) return { ...request, ...multipart(spec.multipart, scope) };
  if (spec.bodyFile) {
    if (!hasType()) headers.push(["content-type", "application/octet-stream"]);
    const bytes = spec.bodyFile.bytes;
    return {
      ...request,
      body: `(${bytes.length} bytes from ${spec.bodyFile.path})`,
      payload: bytes,
      bodyKind: "file",
    };
  }
  if (spec.body === undefined) return request;
  const value = render(spec.body, scope);
  if (typeof value === "string") return { ...request, body: value };
  if (!hasType()) headers.push(["content-type", "application/json"]);
  return { ...request, body: JSON.stringify(value) };
}

/**
 * Adds cookies to a request's `cookie` header, after those it already has
 * (a cookie header the flow writes, explicit `cookies`, then the jar's).
 *
 * @example
 * ```ts
 * import { addCookies } from "./send.ts";
 * const headers: [string, string][] = [["Cookie", "a=1"]];
 * addCookies(headers, "b=2");
 * if (headers[0][1] !== "a=1; b=2") throw new Error();
 * ```
 */
export function addCookies(headers: [string, string][], cookies: string): void {
  const at = headers.findIndex(([name]) => name.toLowerCase() === "cookie");
  if (at === -1) headers.push(["cookie", cookies]);
  else headers[at] = [headers[at][0], `${headers[at][1]}; ${cookies}`];
}

/** Fields form-encoded (`a=1&b=x%20y`), a list repeating its field. */
function formText(fields: readonly [string, ValueTemplate][], scope: Scope): string {
  const form = new URLSearchParams();
  for (const [name, template] of fields) {
    const value = render(template, scope);
    for (const v of Array.isArray(value) ? value : [value]) {
      form.append(name, v === null ? "" : toText(v));
    }
  }
  return form.toString();
}

/**
 * A multipart body (the runtime writes its boundary and content type), and
 * its text for reports and secret discovery: the fields form-encoded, each
 * file as `@filename`.
 */
function multipart(
  parts: readonly MultipartPart[],
  scope: Scope,
): Pick<ResolvedRequest, "body" | "payload" | "bodyKind"> {
  const data = new FormData();
  const shown = new URLSearchParams();
  for (const part of parts) {
    if (part.kind === "field") {
      const text = toText(render(part.value, scope));
      data.append(part.name, text);
      shown.append(part.name, text);
    } else {
      const blob = new Blob([part.file.bytes], { type: part.contentType });
      data.append(part.name, blob, part.filename);
      shown.append(part.name, `@${part.filename}`);
    }
  }
  return { body: shown.toString(), payload: data, bodyKind: "multipart" };
}

/** What was known when a request failed: the response head, if it had arrived. */
interface FailureContext {
  response?: Response;
}

/**
 * Turns the runtime's network errors (hyper's and rustls's wording, wrapped in
 * "error sending request for url …: client error (…)") into a plain reason.
 * The wording of each class is fixed by tests against a raw TCP server.
 */
function networkReason(error: unknown, context: FailureContext): string {
  const text = error instanceof Error
    ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`.trim()
    : String(error);
  if (/connection refused/i.test(text)) return "connection refused";
  if (/dns error|failed to lookup|name or service not known|no address/i.test(text)) {
    return "could not resolve the host";
  }
  if (/message head is too large/i.test(text)) {
    return "the response headers are too large to read (more than 100 header lines, " +
      "or a header block of several hundred kilobytes)";
  }
  if (/invalid HTTP status-code/i.test(text)) {
    return "the server's reply has no valid status code in its first line";
  }
  if (/invalid HTTP version/i.test(text)) {
    return "the server did not reply with HTTP (its first line is not an HTTP status line)";
  }
  if (/invalid HTTP header|invalid header/i.test(text)) {
    return "the server sent a malformed header line";
  }
  if (/invalid content-length/i.test(text)) {
    return "the server sent an invalid or conflicting content-length header";
  }
  if (/connection reset/i.test(text)) return "connection reset by the server";
  if (/received corrupt message|InvalidContentType|wrong version number/i.test(text)) {
    return "the server does not speak TLS on that port (use http:// if it serves plain HTTP)";
  }
  if (/certificate|tls|ssl/i.test(text)) return tlsReason(runtimeDetail(text));
  const response = context.response;
  if (response && !/error reading a body|body from connection/i.test(text)) {
    // Errors raised while the body streams, other than a broken connection, come from the decoder.
    const encoding = response.headers.get("content-encoding");
    if (encoding) {
      return `the body could not be decompressed: its content-encoding is "${encoding}", ` +
        `but the data is corrupt or cut short`;
    }
  }
  if (
    response && !response.headers.has("content-length") &&
    /chunked/i.test(response.headers.get("transfer-encoding") ?? "chunked")
  ) {
    return "the server sent a malformed or cut-off chunked body";
  }
  if (
    /connection closed before message completed/i.test(text) && !response
  ) {
    return "the server closed the connection without sending a response";
  }
  if (
    response ||
    /reading a body|body from connection|connection closed|incomplete message|unexpected eof/i
      .test(text)
  ) {
    return "the server closed the connection before the whole response arrived";
  }
  return runtimeDetail(text);
}

/** rustls's certificate verdicts, in words, with what to do about each. */
const CERTIFICATE_PROBLEMS: [RegExp, string][] = [
  [/CaUsedAsEndEntity|SelfSigned/i, "the server's certificate is self-signed"],
  [/UnknownIssuer/i, "the server's certificate is not signed by a CA this machine trusts"],
  [/NotValidForName|hostname/i, "the server's certificate is for another host name"],
  [/Expired/i, "the server's certificate has expired"],
  [/NotValidYet/i, "the server's certificate is not valid yet (check the clock)"],
  [/Revoked/i, "the server's certificate has been revoked"],
];

/** A TLS failure: the certificate verdict in words when there is one, else rustls's. */
function tlsReason(detail: string): string {
  const known = CERTIFICATE_PROBLEMS.find(([pattern]) => pattern.test(detail));
  if (!known) return `TLS error: ${detail}`;
  const code = /(\w+)\)*\s*$/.exec(detail)?.[1] ?? detail;
  return `TLS error: ${known[1]} (${code}); ` +
    `trust its CA with --cacert FILE or ca_cert, or skip the check with --insecure`;
}

/** The runtime's own reason, without the request it wraps it in. */
function runtimeDetail(text: string): string {
  const detail = text.replace(/^fetch failed\s*/, "").replace(/^.*client error \([^)]*\):\s*/, "")
    .replace(/\.$/, "");
  // The runtime quotes what it refused whole: a URL of 9 MB made every report hold it four
  // times, and a JUnit text node past libxml2's 10 MB limit.
  return detail.length <= MAX_DETAIL
    ? detail
    : `${detail.slice(0, MAX_DETAIL)}… (${detail.length.toLocaleString("en-US")} characters)`;
}

/** The most of the runtime's own words a request error quotes. */
const MAX_DETAIL = 300;

/** The name an interrupt signal was aborted with (e.g. `SIGINT`), for messages. */
export function reasonOf(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : "interrupted";
}

/**
 * The default cap on a response body, in bytes after decompression: 10 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BODY_BYTES } from "./send.ts";
 * if (DEFAULT_MAX_BODY_BYTES !== 10 * 1024 * 1024) throw new Error();
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A byte count as people write it: `10 MiB`, `512 KiB`, `1000 bytes`.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./send.ts";
 * if (formatBytes(10 * 1024 * 1024) !== "10 MiB" || formatBytes(1536) !== "1.5 KiB") throw new Error();
 * if (formatBytes(1) !== "1 byte" || formatBytes(1000) !== "1000 bytes") throw new Error();
 * ```
 */
export function formatBytes(bytes: number): string {
  const units: [string, number][] = [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}

/** Options for {@linkcode send}. */
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
   * the next request, which it may change (the cookies a jar holds for it).
   */
  onRedirect?: (response: ReceivedResponse, next: ResolvedRequest) => void;
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
 * import { RequestError, send } from "./send.ts";
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
  const { signal, timedOut, release } = deadline(
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
          `Request failed: more than ${MAX_REDIRECTS} redirects, the last to "${next.url}".`,
        );
      }
      options.onRedirect?.(received, next);
      received.close();
      current = next;
    }
  } catch (error) {
    if (error instanceof RequestError) throw error;
    if (options.signal?.aborted) {
      throw new RequestError(
        "interrupted",
        `Interrupted (${reasonOf(options.signal)}) before a response arrived.`,
      );
    }
    if (timedOut()) {
      throw new RequestError("timeout", `No complete response within ${options.timeoutMs} ms.`);
    }
    throw new RequestError("network", `Request failed: ${networkReason(error, context)}.`);
  } finally {
    release();
    own?.close();
  }
}

/**
 * One request's signal: aborted after `ms` or when the run's signal aborts.
 * It leaves `deadlines` as soon as the request ends: a signal per request
 * from `AbortSignal.timeout` (with `AbortSignal.any`) kept every request's
 * signals and timer alive for the whole timeout, 30 s of requests at a time
 * (10,000 signals at 2,000 flows).
 */
function deadline(ms: number, run: AbortSignal | undefined, deadlines: Deadlines) {
  const controller = new AbortController();
  let expired = false;
  const unwatch = deadlines.watch(ms, () => {
    expired = true;
    controller.abort(new DOMException(`No response within ${ms} ms.`, "TimeoutError"));
  });
  const interrupt = () => controller.abort(run!.reason);
  if (run?.aborted) interrupt();
  else run?.addEventListener("abort", interrupt, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release() {
      unwatch();
      run?.removeEventListener("abort", interrupt);
    },
  };
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

/**
 * The default most body bytes held in memory, for checks that read the body:
 * 64 MiB. A larger body (up to the cap) is kept in a temporary file instead;
 * parsed as JSON for checks, a body takes several times its size, and a few
 * requests at a time at this size stay within a CI machine's memory.
 *
 * @example
 * ```ts
 * import { DEFAULT_BODY_MEMORY_BYTES } from "./send.ts";
 * if (DEFAULT_BODY_MEMORY_BYTES !== 64 * 1024 * 1024) throw new Error();
 * ```
 */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * The most `bodyMemoryBytes` can be: 500 MiB, under the longest string
 * JavaScript holds (2^29 - 24 UTF-16 units), which a body is decoded into.
 *
 * @example
 * ```ts
 * import { MAX_BODY_MEMORY_BYTES } from "./send.ts";
 * if (MAX_BODY_MEMORY_BYTES >= 2 ** 29 - 24) throw new Error();
 * ```
 */
export const MAX_BODY_MEMORY_BYTES = 500 * 1024 * 1024;

/** How much of a spilled body is kept in memory as its head, for reports. */
const SPILLED_HEAD_BYTES = 64 * 1024;

/**
 * Reads a body chunk by chunk, so a body past the cap (a gzip bomb, an
 * endless stream) is cancelled as soon as it passes, instead of buffered.
 * Each chunk is copied out at once: the runtime hands out decompressed
 * bodies 4 KiB at a time, each a view on a 64 KiB buffer, so keeping the
 * chunks kept 16 times the body (180 MB at a 10 MiB cap, 13 GB for 1 GiB).
 * A body past `memoryCap` goes to a temporary file, not memory.
 */
async function readBody(
  response: Response,
  headers: Record<string, string>,
  cap: number,
  memoryCap: number,
  spill: () => ClosableSpill,
): Promise<string | SpilledBody> {
  if (!response.body) return "";
  // A body sent as is with a length within the limits is read whole: it cannot grow past its
  // length, and most API responses are small ones like that.
  const length = Number(headers["content-length"] ?? Number.NaN);
  if (length <= Math.min(cap, memoryCap) && !Object.hasOwn(headers, "content-encoding")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength <= cap) return UTF8.decode(bytes);
    throw tooLarge(cap);
  }
  if (length > cap && !Object.hasOwn(headers, "content-encoding")) {
    // Announced as too large: nothing of it is worth reading.
    await response.body.cancel().catch(() => {});
    throw tooLarge(cap);
  }
  const body = new BodyBlocks(memoryCap, spill);
  const byob = bytesReader(response.body);
  try {
    return await (byob
      ? readInto(byob, body, cap)
      : readCopies(response.body.getReader(), body, cap));
  } catch (error) {
    body.discard();
    throw error;
  }
}

/** A reader that fills buffers it is given, when the stream is a byte stream (fetch's is). */
function bytesReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    // A stream of chunks (the insecure client's): read as they come.
    return undefined;
  }
}

/**
 * Reads straight into the body's blocks, never more than one byte past the
 * cap. Reading the runtime's chunks instead left a 64 KiB buffer for each
 * 4 KiB of a decompressed body, garbage until the next collection: 130 MB
 * of memory to read a 10 MiB body.
 */
async function readInto(
  reader: ReadableStreamBYOBReader,
  body: BodyBlocks,
  cap: number,
): Promise<string | SpilledBody> {
  while (true) {
    const { done, value } = await reader.read(body.room(cap + 1 - body.size));
    // The block's buffer comes back with the end too (empty), or the body's end is lost with it.
    if (value) body.filled(value);
    if (done) return body.finish();
    if (body.size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
  }
}

/** Reads a stream of chunks, copying each into the body's blocks. */
async function readCopies(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  body: BodyBlocks,
  cap: number,
): Promise<string | SpilledBody> {
  while (true) {
    const { done, value } = await reader.read();
    if (done) return body.finish();
    if (body.size + value.byteLength > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
    body.add(value);
  }
}

/** A {@linkcode ByteSpill} that frees its file on `close`. */
export type ClosableSpill = ByteSpill & { close(): void };

/**
 * A body as it arrives, copied into blocks of up to 1 MiB (small at first, so
 * a small body takes little): held in memory up to `memoryCap`, then moved to
 * a spill, block by block, with only its head kept.
 */
class BodyBlocks {
  size = 0;
  #blocks: Uint8Array[] = [];
  #block: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #used = 0;
  #spill?: ClosableSpill;
  #pieces: (() => Uint8Array)[] = [];
  #head?: Uint8Array;

  constructor(readonly memoryCap: number, readonly openSpill: () => ClosableSpill) {}

  /** A chunk read elsewhere, copied in. */
  add(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length;) {
      if (this.#used === this.#block.length) this.#next();
      const n = Math.min(chunk.length - at, this.#block.length - this.#used);
      this.#block.set(chunk.subarray(at, at + n), this.#used);
      this.#used += n;
      at += n;
    }
    this.size += chunk.length;
  }

  /** Where the next read goes: the free part of the current block, at most `most` bytes. */
  room(most: number): Uint8Array<ArrayBuffer> {
    if (this.#used === this.#block.length) this.#next();
    const free = Math.max(1, Math.min(this.#block.length - this.#used, most));
    return new Uint8Array(this.#block.buffer as ArrayBuffer, this.#used, free);
  }

  /** A read into {@linkcode room} returned `view`: its buffer is the block's, moved. */
  filled(view: Uint8Array): void {
    this.#block = new Uint8Array(view.buffer as ArrayBuffer);
    this.#used += view.byteLength;
    this.size += view.byteLength;
  }

  /** The body: its text when held, else the spilled body. */
  finish(): string | SpilledBody {
    this.#seal();
    if (!this.#spill) {
      // Decoded block by block, each dropped once decoded: the bytes and the text overlap little.
      const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
      const parts: string[] = [];
      for (let i = 0; i < this.#blocks.length; i++) {
        parts.push(decoder.decode(this.#blocks[i], { stream: true }));
        this.#blocks[i] = EMPTY;
      }
      parts.push(decoder.decode());
      this.#blocks = [];
      return parts.join("");
    }
    const pieces = this.#pieces;
    const spill = this.#spill;
    const body: SpilledBody = {
      bytes: this.size,
      memoryCap: this.memoryCap,
      head: new TextDecoder().decode(this.#head ?? EMPTY),
      reason:
        `the response body is ${formatBytes(this.size)}, more than the ${
          formatBytes(this.memoryCap)
        } held in memory for checks, so it was kept in a temporary file: checks of status, ` +
        `headers and cookies run, the body's are refused (raise --max-body-memory, ` +
        `up to ${formatBytes(MAX_BODY_MEMORY_BYTES)}, to check it)`,
      *chunks() {
        for (const piece of pieces) yield piece();
      },
      close: () => spill.close(),
    };
    // A response dropped without `close` (an earlier attempt of a polled step) frees its file too.
    SPILLS.register(body, spill);
    return body;
  }

  /** Frees what is held: the body will not be used. */
  discard(): void {
    this.#blocks = [];
    this.#block = EMPTY;
    this.#spill?.close();
  }

  /** A fresh block: twice what is held so far, from 16 KiB to 1 MiB. */
  #next(): void {
    this.#seal();
    this.#block = new Uint8Array(Math.min(BLOCK_MAX, Math.max(16 * 1024, this.size)));
    this.#used = 0;
  }

  /** Keeps the current block's bytes, and spills what is held once past the memory cap. */
  #seal(): void {
    if (this.#used > 0) this.#blocks.push(this.#block.subarray(0, this.#used));
    this.#block = EMPTY;
    this.#used = 0;
    if (!this.#spill && this.size <= this.memoryCap) return;
    try {
      if (!this.#spill) {
        this.#head = this.#headOf(this.#blocks);
        this.#spill = this.openSpill();
      }
      for (const block of this.#blocks) this.#pieces.push(this.#spill.put(block));
    } catch (error) {
      throw new RequestError(
        "body-too-large",
        `The response body is larger than ${
          formatBytes(this.memoryCap)
        } (what is held in memory) and could not be kept in a temporary file: ${
          (error as Error).message
        }; free disk space or set TMPDIR to a writable directory.`,
      );
    }
    this.#blocks = [];
  }

  /** The first {@linkcode SPILLED_HEAD_BYTES} bytes of `blocks`, copied. */
  #headOf(blocks: Uint8Array[]): Uint8Array {
    const head = new Uint8Array(Math.min(SPILLED_HEAD_BYTES, this.size));
    let at = 0;
    for (const block of blocks) {
      if (at === head.length) break;
      const n = Math.min(block.length, head.length - at);
      head.set(block.subarray(0, n), at);
      at += n;
    }
    return head;
  }
}

const BLOCK_MAX = 1024 * 1024;
const SPILLS = new FinalizationRegistry<ClosableSpill>((spill) => spill.close());
const EMPTY = new Uint8Array(0);

/** Decodes a whole body (no streaming state, so one decoder serves every response). */
const UTF8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

function tooLarge(cap: number): RequestError {
  return new RequestError(
    "body-too-large",
    `The response body is larger than ${
      formatBytes(cap)
    } (the cap); raise it with --max-body or check the endpoint.`,
  );
}
