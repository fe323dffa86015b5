/**
 * What the conversion dropped of the app's own traffic, named for the
 * summary: a page, a failed or cut-off request, a request `--exclude-url`
 * removed, a websocket, and a request dropped as a static asset or analytics
 * that the app's credentials went with (an image an API serves, a beacon
 * with the session cookie). A person reading the summary then sees every
 * request of the app the flow will not send, and can ask for it back
 * (`--include-html`, a narrower `--exclude-url`). Static assets the browser
 * loaded by itself (images, fonts, CSS, scripts), preflights, repeated polls
 * and other sites stay a count.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { REASON } from "./noise.ts";
import { isAnalyticsCookie } from "./noise_headers.ts";

/** The requests of the app's hosts dropped for one reason, in recorded order. */
export interface OwnDropped {
  /** The reason, as in the summary's counts. */
  reason: string;
  /** `METHOD /path` of each request (the origin too when the app has several hosts); never the query. */
  requests: string[];
}

/** Reasons whose requests on the app's hosts are always the app's traffic. */
const ALWAYS = new Set<string>([
  REASON.html,
  REASON.failed,
  REASON.excluded,
  REASON.websocket,
  REASON.oversized,
]);

/** Reasons that are the app's traffic only when the app's credentials went with the request. */
const WITH_CREDENTIALS = new Set<string>([REASON.static, REASON.thirdParty]);

/**
 * Whether a request the app's credentials went with was the app's own: a
 * static-looking one only when a script fetched it (an invoice preview an API
 * serves as an image), since the browser sends cookies with every image,
 * stylesheet, script and favicon it loads for a page.
 */
const asked = (r: HarRecord, reason: string) =>
  reason !== REASON.static || r.resourceType === "fetch" || r.resourceType === "xhr";

/** Cookie and `Authorization` values of at least 8 characters (analytics cookies aside). */
function credentials(r: HarRecord): string[] {
  return [
    ...r.cookies.filter((c) => !isAnalyticsCookie(c.name)).map((c) => c.value),
    ...r.headers.filter((h) => h.name.toLowerCase() === "authorization").map((h) => h.value),
  ].filter((v) => v.length >= 8);
}

/**
 * The dropped requests of the app's hosts (`own`, plus the hosts of the kept
 * requests) that looked like the app's traffic, grouped by reason in the
 * order of their first request.
 *
 * @example
 * ```ts
 * import { ownDropped } from "./dropped.ts";
 * import { parseHar } from "./har_model.ts";
 * import { classify } from "./noise.ts";
 * const entry = (method: string, url: string, status: number, mimeType: string, type: string) => ({
 *   request: { method, url, headers: [{ name: "cookie", value: "sid=s-12345678" }] },
 *   response: { status, content: { mimeType } }, _resourceType: type,
 * });
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   entry("GET", "https://app.test/", 200, "text/html", "document"),
 *   entry("GET", "https://app.test/app.css", 200, "text/css", "stylesheet"),
 *   entry("GET", "https://app.test/api/me", 200, "application/json", "fetch"),
 *   entry("GET", "https://app.test/api/stream?since=1", 0, "", "fetch"),
 * ] } }), []);
 * const { kept, dropped } = classify(har.records, {});
 * const named = ownDropped(dropped, kept, new Set());
 * if (JSON.stringify(named) !== JSON.stringify([
 *   { reason: "HTML document", requests: ["GET /"] },
 *   { reason: "failed (no HTTP status)", requests: ["GET /api/stream"] },
 * ])) throw new Error(JSON.stringify(named));
 * ```
 */
export function ownDropped(
  dropped: Map<HarRecord, string>,
  kept: HarRecord[],
  own: Set<string>,
): OwnDropped[] {
  const hosts = new Set([...kept.map((r) => r.url.host), ...own]);
  const secrets = new Set<string>();
  for (const r of kept) {
    for (const v of credentials(r)) secrets.add(v);
    for (const c of r.setCookies) {
      if (c.value.length >= 8 && !isAnalyticsCookie(c.name)) secrets.add(c.value);
    }
  }
  const several = hosts.size > 1;
  const groups = new Map<string, string[]>();
  const ordered = [...dropped].sort(([a], [b]) => a.index - b.index);
  for (const [r, reason] of ordered) {
    if (!hosts.has(r.url.host)) continue;
    const named = ALWAYS.has(reason) ||
      (WITH_CREDENTIALS.has(reason) && asked(r, reason) &&
        credentials(r).some((v) => secrets.has(v)));
    if (!named) continue;
    const where = several ? `${r.url.protocol.replace(/^ws/, "http")}//${r.url.host}` : "";
    const list = groups.get(reason) ?? [];
    list.push(`${r.method} ${where}${r.url.pathname}`.slice(0, 200));
    groups.set(reason, list);
  }
  return [...groups].map(([reason, requests]) => ({ reason, requests }));
}

/** How each reason reads in a sentence about the app's own requests. */
const PHRASE: Record<string, string> = {
  [REASON.excluded]: "Dropped by --exclude-url",
  [REASON.static]: "Dropped as static asset, though fetched with the app's credentials,",
  [REASON.thirdParty]: "Dropped as analytics, though sent with the app's credentials,",
};

/**
 * Most distinct requests a summary line names; the rest are counted.
 *
 * @example
 * ```ts
 * import { MAX_NAMED_PER_REASON } from "./dropped.ts";
 * if (MAX_NAMED_PER_REASON !== 10) throw new Error();
 * ```
 */
export const MAX_NAMED_PER_REASON = 10;

/**
 * One summary line per reason, most requests first: the distinct requests in
 * recorded order with `×n` for repeats, at most
 * {@linkcode MAX_NAMED_PER_REASON} of them and the rest counted.
 *
 * @example
 * ```ts
 * import { ownDroppedLines } from "./dropped.ts";
 * const [line] = ownDroppedLines([{ reason: "HTML document", requests: ["GET /", "GET /a", "GET /"] }]);
 * if (line !== "Dropped as HTML document on the app's hosts (3): GET / ×2, GET /a.") throw new Error(line);
 * ```
 */
export function ownDroppedLines(groups: OwnDropped[]): string[] {
  const sorted = [...groups].sort((a, b) =>
    b.requests.length - a.requests.length || (a.reason < b.reason ? -1 : 1)
  );
  return sorted.map(({ reason, requests }) =>
    `${PHRASE[reason] ?? `Dropped as ${reason}`} on the app's hosts (${requests.length}): ${
      namedRequests(requests)
    }.`
  );
}

/**
 * `requests` as a summary names them: the distinct ones in recorded order with `×n` for
 * repeats, at most {@linkcode MAX_NAMED_PER_REASON} of them and the rest counted. Listed one by
 * one, ten edits of one page read `PUT /page/a/action, PUT /page/a/action, …`.
 *
 * @example
 * ```ts
 * import { namedRequests } from "./dropped.ts";
 * if (namedRequests(["PUT /a", "GET /b", "PUT /a"]) !== "PUT /a ×2, GET /b") throw new Error();
 * ```
 */
export function namedRequests(requests: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  const shown = [...counts].slice(0, MAX_NAMED_PER_REASON);
  const more = requests.length - shown.reduce((n, [, k]) => n + k, 0);
  const names = shown.map(([r, n]) => n > 1 ? `${r} ×${n}` : r).join(", ");
  return `${names}${more > 0 ? `, and ${more} more` : ""}`;
}
