/**
 * A request of the page that its service worker forwarded, as Playwright
 * records it: twice. NodeBB's page registers a worker whose `fetch` handler
 * sends each request on; `recordHar` wrote the page's entry (the answer's
 * body, only the headers the script set, no cookies, and no `_serverPort`,
 * since no server answered the page itself) and the worker's own fetch of the
 * same URL (`_serviceWorkerRef`, `_serverPort`: the wire's headers with
 * `Cookie` and `Origin`, the `Set-Cookie` answered, no body). The server got
 * one request; replayed as two, a delete ran twice and the second was refused.
 *
 * The evidence that the two are one: the worker's fetch has the page's method,
 * URL and body, and began while the page's entry, which no server answered,
 * was open (the page's answer is the worker's). Pairs are made in time order,
 * each entry in one pair at most, so a page that sent the same request twice
 * keeps both.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

/** Why a worker's copy is dropped (a key of the summary's `dropped`). */
export const WORKER_COPY = "service worker's copy";

/** How long before the page's entry a worker's fetch may be stamped: the two clocks round apart. */
const SKEW_MS = 50;

/** Whether the page's service worker fetched `r` (Playwright's `_serviceWorkerRef`). */
const byWorker = (r: HarRecord) => r.raw._serviceWorkerRef !== undefined;

/** Whether a server answered `r` itself (Playwright's `_serverPort`, written from the socket). */
const answeredByServer = (r: HarRecord) => r.raw._serverPort !== undefined;

/** How long `r` was open, in ms (0 when unrecorded). */
function took(r: HarRecord): number {
  return typeof r.raw.time === "number" && Number.isFinite(r.raw.time) && r.raw.time > 0
    ? r.raw.time
    : 0;
}

/** Whether `worker` is the fetch the worker made to answer `page`. */
function forwards(worker: HarRecord, page: HarRecord): boolean {
  if (worker.started === undefined || page.started === undefined) return false;
  return worker.method === page.method && worker.url.href === page.url.href &&
    (worker.bodyText ?? "") === (page.bodyText ?? "") &&
    worker.started >= page.started - SKEW_MS &&
    worker.started <= page.started + took(page) + SKEW_MS;
}

/** The raw request or response object of `r`, made when missing. */
function part(r: HarRecord, key: "request" | "response"): Record<string, unknown> {
  const raw = r.raw[key];
  if (typeof raw === "object" && raw !== null) return raw as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  r.raw[key] = made;
  return made;
}

/** Whether the recorded answer of `r` holds body text. */
function hasBody(r: HarRecord): boolean {
  const response = r.raw.response as { content?: { text?: unknown } } | undefined;
  const content = typeof response === "object" && response !== null ? response.content : undefined;
  return typeof content?.text === "string" && content.text !== "";
}

/**
 * Gives `page` what the wire carried, as the worker's entry holds it: the
 * request's headers and cookies, the response's headers and the cookies it
 * set; the body stays the page's unless only the worker's entry kept one.
 */
function takeWire(page: HarRecord, worker: HarRecord): void {
  // Copies: the worker's entry stays among the dropped, which later stages read.
  page.headers = worker.headers.map((h) => ({ ...h }));
  page.cookies = worker.cookies.map((c) => ({ ...c }));
  page.setCookies = worker.setCookies.map((c) => ({ ...c }));
  const [pageRequest, wireRequest] = [part(page, "request"), part(worker, "request")];
  pageRequest.headers = structuredClone(wireRequest.headers);
  pageRequest.cookies = structuredClone(wireRequest.cookies);
  const [pageResponse, wireResponse] = [part(page, "response"), part(worker, "response")];
  pageResponse.headers = structuredClone(wireResponse.headers);
  pageResponse.cookies = structuredClone(wireResponse.cookies);
  if (!hasBody(page) && hasBody(worker)) {
    pageResponse.content = structuredClone(wireResponse.content);
  }
}

/**
 * Folds each worker's fetch of a page's request into that request (see the
 * module's evidence) and returns the worker's entries so folded, to be dropped
 * as {@linkcode WORKER_COPY}. A worker's fetch of its own (a redirect's hop,
 * its script) pairs with no page entry and stays.
 *
 * @example
 * ```ts
 * import { foldWorkerCopies } from "./worker_copies.ts";
 * import { parseHar } from "./har_model.ts";
 * const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
 * const entry = (worker: boolean) => ({
 *   startedDateTime: at, time: 80, _resourceType: "fetch",
 *   ...(worker ? { _serviceWorkerRef: "worker@1", _serverPort: 80 } : {}),
 *   request: { method: "DELETE", url: "https://forum.test/api/posts/3",
 *     headers: worker ? [{ name: "Cookie", value: "sid=abc" }] : [] },
 *   response: { status: 200, headers: [], content: { mimeType: "application/json", text: worker ? "" : "{}" } },
 * });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [entry(false), entry(true)] } }), []);
 * const copies = foldWorkerCopies(records);
 * if (copies.length !== 1 || copies[0] !== records[1]) throw new Error("not folded");
 * if (records[0].cookies[0]?.value !== "abc") throw new Error("no wire cookie");
 * ```
 */
export function foldWorkerCopies(records: readonly HarRecord[]): HarRecord[] {
  const pages = records.filter((r) => !byWorker(r) && !answeredByServer(r));
  const paired = new Set<HarRecord>();
  const copies: HarRecord[] = [];
  for (const worker of records) {
    if (!byWorker(worker)) continue;
    const page = pages.find((p) => !paired.has(p) && forwards(worker, p));
    if (!page) continue;
    paired.add(page);
    takeWire(page, worker);
    copies.push(worker);
  }
  return copies;
}
