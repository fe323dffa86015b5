/**
 * What of a browser recording is not the API: static assets, HTML pages,
 * CORS preflights, websockets, failed requests, analytics and third-party
 * hosts, and the request headers a browser adds on its own. Each dropped
 * entry gets a reason so the summary can count them.
 *
 * @module
 */
import { type HarRecord, isJsonMime } from "./har_model.ts";
import { isAnalyticsCookie } from "./noise_headers.ts";
import { responseHeaders } from "./handed.ts";
import { isReplayableWebSocket, isWebSocket } from "./har_websocket.ts";
import { isOversizedRead, noteExpansion } from "./oversized.ts";
import { isHtmlPage } from "./html_answer.ts";
import { producerHosts } from "./producer_hosts.ts";

/**
 * Why an entry was dropped (the keys of the summary's `dropped`).
 *
 * @example
 * ```ts
 * import { REASON } from "./noise.ts";
 * if (REASON.preflight !== "CORS preflight") throw new Error();
 * ```
 */
export const REASON = {
  static: "static asset",
  preflight: "CORS preflight",
  thirdParty: "analytics/third-party host",
  telemetry: "telemetry host",
  websocket: "websocket",
  failed: "failed (no HTTP status)",
  oversized: "larger than the runner reads (--max-body)",
  poll: "duplicate poll",
  unanswered: "unanswered (still open when the recording ended)",
  longPoll: "long poll (held until something happened)",
  excluded: "excluded by --exclude-url",
  html: "HTML document",
  notIncluded: "not in --include-host",
} as const;

/** Options that change what is kept. */
export interface NoiseOptions {
  includeHosts?: string[];
  excludeUrls?: RegExp[];
  includeHtml?: boolean;
  /** When the recording's last request started or ended, ms since the epoch (set by `classify`). */
  recordingEnd?: number;
}

/** How long a read must have been open, unanswered, when the recording ended to count as held. */
const HELD_MS = 1_000;

const STATIC_TYPES = new Set(
  "image font stylesheet script media manifest texttrack imageset sourcemap".split(" "),
);

const STATIC_EXTENSION =
  /\.(m?js|cjs|jsx|tsx?|css|less|scss|map|png|jpe?g|gif|svg|ico|webp|avif|bmp|tiff?|woff2?|ttf|otf|eot|mp4|webm|ogg|ogv|mp3|wav|flac|m4a|aac|mov|avi|wasm|webmanifest|hot-update\.json)$/i;

const STATIC_MIME =
  /^(image|font|audio|video)\/|^text\/(css|javascript|ecmascript)$|^application\/(x-)?(javascript|ecmascript|font-\w+|wasm|manifest\+json)$/;

/**
 * Hosts that only ever carry analytics, ads, telemetry, error reporting,
 * session replay, feature-flag events or chat widgets: a maintained list, so
 * a vendor that receives many JSON calls is still not taken for the app's API.
 */
const ANALYTICS_HOST =
  /(^|\.)(rudderstack\.com|rudderlabs\.com|dataplane\.rudderstack\.com|i\.posthog\.com|api-js\.mixpanel\.com|api2\.amplitude\.com|cdn\.segment\.com|api\.segment\.io|lr-ingest\.(io|com)|logrocket\.(com|io)|smartlook\.(com|cloud)|mouseflow\.com|bugsnag\.com|rollbar\.com|events\.launchdarkly\.com|statsig\.com|statsigapi\.net|vercel-insights\.com|pendo\.io|appcues\.com|track\.customer\.io|klaviyo\.com|braze\.com|snowplowanalytics\.com|openreplay\.com|quantummetric\.com|contentsquare\.net|fullstory\.com|datadoghq-browser-agent\.com|trackjs\.com|raygun\.io|honeybadger\.io|google-analytics\.com|analytics\.google\.com|googletagmanager\.com|doubleclick\.net|googlesyndication\.com|googleadservices\.com|facebook\.(com|net)|connect\.facebook\.net|segment\.(io|com)|hotjar\.(com|io)|mixpanel\.com|amplitude\.com|sentry\.io|ingest\.sentry\.io|nr-data\.net|newrelic\.com|browser-intake-[\w-]+\.datadoghq\.(com|eu)|clarity\.ms|fullstory\.com|intercom\.io|heapanalytics\.com|optimizely\.com|bat\.bing\.com|linkedin\.com|ads-twitter\.com|t\.co|plausible\.io|posthog\.com|matomo\.cloud|stats\.wp\.com|cloudflareinsights\.com)$/i;

/**
 * Paths that only collect events, whatever the host (a self-hosted Sentry,
 * PostHog or Matomo, a first-party Segment proxy): Google's `/collect`,
 * event batches, pixels and beacons, Sentry envelopes.
 */
const COLLECTOR_PATH =
  /^\/(?:[gj]\/)?collect\b|\/(?:v\d+\/)?(?:batch|track|t|e|i\/v0\/e|capture|decide|engage|events?\/batch|rum|beacon|pixel|log\/events|matomo\.php|piwik\.php)\/?$|^\/api\/\d+\/(?:envelope|store)\/?$/i;

/** A pixel reports its event in its query (`/p.gif?e=view`); a GIF without one is a theme's image. */
const isPixel = (url: URL) => /\.gif$/i.test(url.pathname) && url.search.length > 1;

/** Development-server traffic that looks like JSON but is part of the build. */
const DEV_SERVER_PATH = /^\/(_next\/static|__webpack_hmr|@vite|@fs|sockjs-node)\//;

/**
 * The reasons an entry is not API traffic regardless of host, each with its
 * test, in the order they are tried: the first that holds names the entry.
 */
const INTRINSIC: [string, (r: HarRecord, options: NoiseOptions) => boolean][] = [
  [
    REASON.websocket,
    // A socket with recorded messages is replayed as a websocket step (`har_websocket.ts`).
    (r) => isWebSocket(r) && !isReplayableWebSocket(r),
  ],
  // Status 0 or -1 (or garbage): the request got no HTTP response (aborted by a
  // navigation, cancelled, blocked), and a flow cannot assert a status it never had.
  [REASON.failed, (r) => r.status !== undefined && (r.status < 100 || r.status > 599)],
  [REASON.unanswered, (r, options) => stillOpen(r) && heldToTheEnd(r, options.recordingEnd)],
  [
    REASON.preflight,
    (r) =>
      (r.method === "OPTIONS" &&
        r.headers.some((h) => h.name.toLowerCase() === "access-control-request-method")) ||
      r.resourceType === "preflight",
  ],
  [
    REASON.excluded,
    (r, options) => options.excludeUrls?.some((re) => re.test(r.url.href)) ?? false,
  ],
  [
    REASON.thirdParty,
    (r) =>
      ANALYTICS_HOST.test(r.url.hostname) || r.resourceType === "ping" ||
      r.resourceType === "beacon" || COLLECTOR_PATH.test(r.url.pathname) || isPixel(r.url) ||
      isBeaconShaped(r),
  ],
  [
    REASON.static,
    // A request sent with a body is no asset, whatever it answers: a Rails form's XHR
    // (`POST /issues/1/edit.js`) answers script and renews the session cookie the save sends.
    (r) =>
      (r.method === "GET" || r.method === "HEAD") &&
      (STATIC_TYPES.has(r.resourceType ?? "") || STATIC_EXTENSION.test(r.url.pathname) ||
        STATIC_MIME.test(r.mimeType) || DEV_SERVER_PATH.test(r.url.pathname)),
  ],
  [
    REASON.html,
    (r, options) => isHtmlPage(r) && !options.includeHtml,
  ],
  // Last: an asset or a page keeps its own reason, however large.
  [REASON.oversized, (r) => isOversizedRead(r)],
];

/**
 * A read the server held open (a long poll with nothing to say yet) and the
 * recording ended before its answer: a status and headers, a body streamed
 * in chunks of which no byte came (`content.size` -1). It holds no answer to
 * check, and replayed it waits for the server's timeout (Syncthing's
 * `/rest/events` 60 s). An answer whose body the recorder only missed says
 * its length; a Server-Sent Events stream is a step of its own.
 */
function stillOpen(r: HarRecord): boolean {
  if (r.method !== "GET" || r.status === undefined || r.status < 200 || r.status > 299) {
    return false;
  }
  if (r.mimeType === "text/event-stream" || r.resourceType === "eventsource") return false;
  const response = (r.raw.response ?? {}) as Record<string, unknown>;
  const content = (response.content ?? {}) as Record<string, unknown>;
  if (content.size !== -1 || typeof content.text === "string" || response.bodySize !== -1) {
    return false;
  }
  const named = (name: string) =>
    responseHeaders(r).find((h) => h.name.toLowerCase() === name)?.value ?? "";
  return /chunked/i.test(named("transfer-encoding")) && named("content-length") === "";
}

/**
 * Whether `r` was open a second or more when the recording ended: the server held it (Syncthing's
 * `/rest/events/disk`, 10 s). A read the page began as the recording stopped (Verdaccio's readme
 * fetch when the browser closed) only missed its body; kept, it is answered on replay. Without
 * times, held.
 */
function heldToTheEnd(r: HarRecord, end: number | undefined): boolean {
  return end === undefined || r.started === undefined || end - r.started >= HELD_MS;
}

/** The last moment the recording saw: the latest start or end of an entry. */
function recordingEndOf(records: readonly HarRecord[]): number | undefined {
  let end: number | undefined;
  for (const r of records) {
    if (r.started === undefined) continue;
    // A number only: Number() of a hostile nested list recurses through its toString.
    const time = (r.raw as { time?: unknown }).time;
    const last = r.started +
      (typeof time === "number" && Number.isFinite(time) && time > 0 ? time : 0);
    end = end === undefined ? last : Math.max(end, last);
  }
  return end;
}

/** The reason an entry is not API traffic regardless of host, or `undefined`. */
function intrinsicReason(r: HarRecord, options: NoiseOptions): string | undefined {
  return INTRINSIC.find(([, test]) => test(r, options))?.[0];
}

/**
 * A POST sent as `text/plain` (how `navigator.sendBeacon` and most event
 * SDKs avoid a CORS preflight) that got no content back: fire-and-forget
 * telemetry, not an API call a flow should replay.
 */
function isBeaconShaped(r: HarRecord): boolean {
  const type = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? r.bodyMime;
  return r.method === "POST" && /^text\/plain\b/i.test(type ?? "") &&
    (r.status === 204 || r.status === 202);
}

/** Whether an entry is evidently an API call: fetch/XHR, or JSON going either way. */
function looksLikeApi(r: HarRecord): boolean {
  if (r.resourceType === "xhr" || r.resourceType === "fetch" || isWebSocket(r)) return true;
  if (r.resourceType !== undefined && r.resourceType !== "other") return false;
  return isJsonMime(r.mimeType) || isJsonMime(r.bodyMime) ||
    r.headers.some((h) => h.name.toLowerCase() === "content-type" && /json/i.test(h.value));
}

/**
 * The site of a host: its last two labels (`api.shop.example` →
 * `shop.example`); an IP address or `localhost` with its port, since two
 * ports on one machine are two different servers.
 */
function site(host: string): string {
  const hostname = host.replace(/:\d+$/, "");
  if (/^[\d.]+$|^\[|^localhost$/.test(hostname)) return host;
  return hostname.split(".").slice(-2).join(".");
}

/**
 * The API hosts of a recording: the hosts of the page's own site and the
 * hosts that receive its credentials, then the host with the most API calls,
 * the hosts of its site (`auth.shop.example` next to `api.shop.example`), and
 * other hosts with at least two JSON API calls (a separate API the app uses).
 * A single fetch to another site is a widget or a tracker, unless its answer
 * produced a value the app's requests then send (a sign-in service's token:
 * `producer_hosts.ts`); a telemetry host ({@linkcode telemetryHosts}) is
 * never an API host but by that evidence.
 */
function apiHosts(candidates: HarRecord[], own: OwnSite, telemetry: Map<string, string>): string[] {
  const counts = new Map<string, number>();
  const json = new Map<string, number>();
  for (const r of candidates) {
    if (!looksLikeApi(r) || telemetry.has(r.url.host)) continue;
    counts.set(r.url.host, (counts.get(r.url.host) ?? 0) + 1);
    if (isJsonMime(r.mimeType) || isJsonMime(r.bodyMime)) {
      json.set(r.url.host, (json.get(r.url.host) ?? 0) + 1);
    }
  }
  let top: string | undefined;
  for (const [host, n] of counts) if (top === undefined || n > counts.get(top)!) top = host;
  if (top === undefined) return [];
  const topSite = site(top);
  const kept = [...counts.keys()].filter((host) =>
    host === top || site(host) === topSite || (json.get(host) ?? 0) >= 2 ||
    own.sites.has(site(host)) || own.credentialed.has(host)
  );
  // A host whose answer the app's requests then send (a sign-in service's token) is the app's,
  // however few its calls and whatever scripts it served.
  const isApp = (host: string) => site(host) === topSite || own.sites.has(site(host));
  return [...new Set([...kept, ...producerHosts(candidates, isApp)])];
}

/** The page's own site, and the other hosts that receive its credentials. */
interface OwnSite {
  /** Sites of the top documents; empty when the recording holds no page. */
  sites: Set<string>;
  /** Hosts elsewhere whose requests carry a cookie or `Authorization` value the site's requests carry. */
  credentialed: Set<string>;
}

const isScript = (r: HarRecord) =>
  r.resourceType === "script" || /^(text|application)\/(x-)?(java|ecma)script$/.test(r.mimeType) ||
  /\.m?js$/i.test(r.url.pathname);

const isDocument = (r: HarRecord) =>
  r.method === "GET" && (r.resourceType === "document" ||
    (r.resourceType === undefined && /^(text\/html|application\/xhtml\+xml)$/.test(r.mimeType)));

/**
 * The page's own site: the site of the first document the recording loaded
 * (later documents of other sites are iframes or a login provider, not the
 * app), and the hosts elsewhere whose API-like requests (`candidates`, not
 * the scripts and images a browser sends cookies with on its own) carry one
 * of the credentials sent to it: a cookie value (analytics cookies aside:
 * they go to every host of a domain) or an `Authorization` value.
 */
function ownSite(records: HarRecord[], candidates: HarRecord[]): OwnSite {
  const first = records.find((r) => isDocument(r) && (r.status ?? 200) > 0);
  const sites = new Set(first ? [site(first.url.host)] : []);
  const secrets = new Set<string>();
  const credentials = (r: HarRecord) =>
    [
      ...r.cookies.filter((c) => !isAnalyticsCookie(c.name)).map((c) => c.value),
      ...r.headers.filter((h) => h.name.toLowerCase() === "authorization").map((h) => h.value),
    ].filter((v) => v.length >= 8);
  for (const r of records) {
    if (!sites.has(site(r.url.host))) continue;
    for (const v of credentials(r)) secrets.add(v);
    for (const c of r.setCookies) {
      if (c.value.length >= 8 && !isAnalyticsCookie(c.name)) secrets.add(c.value);
    }
  }
  const credentialed = new Set<string>();
  for (const r of candidates) {
    if (!sites.has(site(r.url.host)) && credentials(r).some((v) => secrets.has(v))) {
      credentialed.add(r.url.host);
    }
  }
  return { sites, credentialed };
}

/**
 * Telemetry hosts, each with the script it served: a host off the page's
 * own site that served the page a script and never received the app's
 * credentials. Whatever its paths, what it then receives from that script
 * is telemetry (events, page views, errors), not the app's API.
 */
function telemetryHosts(records: HarRecord[], own: OwnSite): Map<string, string> {
  const out = new Map<string, string>();
  if (own.sites.size === 0) return out;
  for (const r of records) {
    const host = r.url.host;
    if (out.has(host) || own.sites.has(site(host)) || own.credentialed.has(host)) continue;
    if (isScript(r) && (r.status ?? 200) < 400) out.set(host, r.url.pathname);
  }
  return out;
}

/**
 * Splits records into kept ones and drop reasons. The API hosts are those
 * given with `includeHosts` (host or host:port), else the page's own site,
 * the hosts that receive its credentials and the hosts of the entries that
 * evidently are API calls, never a telemetry host (one that served the page
 * a script and never received the app's credentials); everything elsewhere
 * is third-party.
 *
 * @example
 * ```ts
 * import { parseHar } from "./har_model.ts";
 * import { classify } from "./noise.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://api.test/me" }, response: { status: 200, content: { mimeType: "application/json" } } },
 *   { request: { method: "GET", url: "https://api.test/app.js" }, response: { status: 200, content: { mimeType: "text/javascript" } } },
 * ] } }), []);
 * const { kept, dropped } = classify(har.records, {});
 * if (kept.length !== 1 || dropped.get(har.records[1]) !== "static asset") throw new Error();
 * ```
 */
export function classify(
  records: HarRecord[],
  options: NoiseOptions,
): Classified {
  const dropped = new Map<HarRecord, string>();
  const candidates: HarRecord[] = [];
  const timed = { ...options, recordingEnd: options.recordingEnd ?? recordingEndOf(records) };
  noteExpansion(records);
  for (const r of records) {
    const reason = intrinsicReason(r, timed);
    if (reason) dropped.set(r, reason);
    else candidates.push(r);
  }
  const given = (options.includeHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean);
  const own = ownSite(records, candidates);
  const telemetry = given.length > 0 ? new Map<string, string>() : telemetryHosts(records, own);
  const hosts = new Set(given.length > 0 ? given : apiHosts(candidates, own, telemetry));
  const kept: HarRecord[] = [];
  // Hosts whose fetch/XHR or JSON traffic was dropped: maybe an API, so the summary says how to keep it.
  const apiLikeDropped = new Map<string, number>();
  const telemetryDropped = new Map<string, { count: number; script: string }>();
  for (const r of candidates) {
    if (hosts.has(r.url.host) || hosts.has(r.url.hostname)) kept.push(r);
    else if (telemetry.has(r.url.host)) {
      dropped.set(r, REASON.telemetry);
      const seen = telemetryDropped.get(r.url.host);
      if (seen) seen.count++;
      else telemetryDropped.set(r.url.host, { count: 1, script: telemetry.get(r.url.host)! });
    } else {
      dropped.set(r, given.length > 0 ? REASON.notIncluded : REASON.thirdParty);
      if (looksLikeApi(r)) {
        apiLikeDropped.set(r.url.host, (apiLikeDropped.get(r.url.host) ?? 0) + 1);
      }
    }
  }
  const ownHosts = new Set(
    records.map((r) => r.url.host).filter((h) => own.sites.has(site(h)) || own.credentialed.has(h)),
  );
  return { kept, dropped, apiLikeDropped, telemetryDropped, ownHosts };
}

/** What {@linkcode classify} returns. */
export interface Classified {
  kept: HarRecord[];
  /** Every dropped record with its reason. */
  dropped: Map<HarRecord, string>;
  /** Hosts whose API-like requests were dropped as another site's, with their count. */
  apiLikeDropped: Map<string, number>;
  /** Telemetry hosts whose requests were dropped: their count and the script the host served. */
  telemetryDropped: Map<string, { count: number; script: string }>;
  /** Hosts of the page's own site and the hosts that receive its credentials. */
  ownHosts: Set<string>;
}
