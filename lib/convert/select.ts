/**
 * The first stages of `convert har`: read the producer's shape and select the
 * API's traffic. The HAR (text or bytes) is decoded and parsed into records;
 * static assets, pages, preflights, telemetry and other sites are dropped,
 * with counts by reason and hints for API-like traffic that was dropped;
 * pages that hand out the session's cookies or CSRF token are kept; the rest
 * is put in start order with its bodies decoded.
 *
 * @module
 */
import { sendChallengedBasic } from "./basic_challenge.ts";
import { dropUnsentUrlCredentials } from "./url_credentials_unsent.ts";
import { isSanitized, sanitizedNote, sendBearerTokens } from "./har_sanitized.ts";
import { UsageError } from "../model/errors.ts";
import { decodeHar } from "./har_input.ts";
import { loadBodies } from "./har_bodies.ts";
import { readLostAnswers } from "./lost_answers.ts";
import { loadWebSocketMessages } from "./har_websocket.ts";
import { orderByAnswers } from "./answer_order.ts";
import { dropSocketPolls, SOCKET_POLL } from "./socket_polls.ts";
import { type HarRecord, type ParsedHar, parseHar } from "./har_model.ts";
import { classify, type NoiseOptions } from "./noise.ts";
import { namedRequests, type OwnDropped, ownDropped } from "./dropped.ts";
import { statePages } from "./pages.ts";
import { renderedAppPages, renderedNote } from "./rendered_app.ts";
import { reattachRedirectCookies } from "./redirects.ts";
import { restoreRedirectedPosts } from "./redirected_posts.ts";
import { foldWorkerCopies, WORKER_COPY } from "./worker_copies.ts";
import { fillUploadsFromForms } from "./uploads.ts";
import { plural, pluralWord } from "../_util/plural.ts";

/** The API's traffic of a recording, and what was left out. */
export interface Traffic {
  parsed: ParsedHar;
  /** The kept records in start order, bodies decoded. */
  ordered: HarRecord[];
  /** Dropped entries by reason; later stages add their own (repeated polls). */
  dropped: Record<string, number>;
  /** For the person converting: telemetry and other sites' API-like traffic dropped, and how to keep it. */
  hints: string[];
  /** Limits met so far (a huge file, missing bodies, kept pages, …). */
  notes: string[];
  /** The requests of the app's own hosts that were dropped though they looked like its traffic. */
  ownDropped: OwnDropped[];
  /** Whether it is DevTools' sanitized export: the run keeps the cookies (`har_sanitized.ts`). */
  sanitized: boolean;
}

/**
 * Reads a HAR and selects the API's traffic. Throws {@linkcode UsageError}
 * `bad-har` when the input is not a HAR or holds no API request.
 *
 * @example
 * ```ts
 * import { selectTraffic } from "./select.ts";
 * const entry = (url: string, type: string) => ({
 *   request: { method: "GET", url }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 *   _resourceType: type,
 * });
 * const t = selectTraffic(JSON.stringify({ log: { entries: [
 *   entry("https://app.test/api/me", "fetch"), entry("https://app.test/app.js", "script"),
 * ] } }), {});
 * if (t.ordered.length !== 1 || t.dropped["static asset"] !== 1) throw new Error(JSON.stringify(t.dropped));
 * ```
 */
export function selectTraffic(har: string | Uint8Array, options: NoiseOptions): Traffic {
  const notes: string[] = [];
  const harText = typeof har === "string" ? har : decodeHar(har);
  const parsed = parseHar(harText, notes);
  notes.push(...restoreRedirectedPosts(parsed.records));
  // After the redirects a worker followed are read from its fetches: a copy is no hop.
  const copies = new Set(foldWorkerCopies(parsed.records));
  parsed.records = parsed.records.filter((r) => !copies.has(r));
  notes.push(...reattachRedirectCookies(parsed.records));
  // Before anything reads the headers: a URL's user part the browser never sent, then a request
  // the browser sent again after a hidden challenge.
  dropUnsentUrlCredentials(parsed.records);
  sendChallengedBasic(parsed.records);
  const { kept, dropped, apiLikeDropped, telemetryDropped, ownHosts } = classify(
    parsed.records,
    flowrunHosts(parsed, options),
  );
  // Before the pages are chosen: a form's hidden token the upload now sends keeps its page.
  // Every record, since a form's upload is a page (kept only once the pages are chosen).
  fillUploadsFromForms(parsed.records, parsed.records);
  const rendered = options.includeHtml ? [] : renderedAppPages(kept, dropped, ownHosts);
  for (const page of rendered) dropped.delete(page);
  kept.push(...rendered);
  if (rendered.length > 0) notes.push(renderedNote(rendered));
  const pagesNote = keepStatePages(kept, dropped, options);
  if (pagesNote) notes.push(pagesNote);
  for (const copy of copies) dropped.set(copy, WORKER_COPY);
  const own = ownDropped(dropped, kept, ownHosts);
  const hints = droppedHostHints(telemetryDropped, apiLikeDropped);
  const droppedCounts = countDropped(parsed, dropped);
  if (kept.length === 0) throw nothingKept(parsed, droppedCounts);
  // Entries are usually in start order already; a stable sort keeps ties in file order.
  const started = kept.every((r) => r.started !== undefined)
    ? orderByAnswers([...kept].sort((a, b) => a.started! - b.started!))
    : kept;
  // The dropped records hold the page's scripts: a JSON body chrome-har flattened may need them.
  loadBodies(started, notes, [...dropped.keys()]);
  // A sign-in whose page reloaded before its answer was read: its token is read from its sibling.
  readLostAnswers(started, notes);
  const polls = dropSocketPolls(started);
  if (polls.note) notes.push(polls.note);
  if (polls.dropped > 0) droppedCounts[SOCKET_POLL] = polls.dropped;
  const ordered = polls.kept;
  loadWebSocketMessages(ordered, notes);
  const sanitized = isSanitized(parsed);
  if (sanitized) notes.push(sanitizedNote(sendBearerTokens(ordered)));
  return { parsed, ordered, dropped: droppedCounts, hints, notes, ownDropped: own, sanitized };
}

/** Keeps the pages that take part in the session (unless all pages are kept); the note on them. */
function keepStatePages(
  kept: HarRecord[],
  dropped: Map<HarRecord, string>,
  options: NoiseOptions,
): string | undefined {
  const pages = options.includeHtml ? [] : statePages(kept, dropped);
  for (const page of pages) dropped.delete(page);
  if (pages.length === 0) return undefined;
  kept.push(...pages);
  kept.sort((a, b) => a.index - b.index);
  return `Kept ${pages.length === 1 ? "the HTML document" : `${pages.length} HTML documents`} (${
    namedRequests(pages.map((p) => `${p.method} ${p.url.pathname}`))
  }) that take part in the session: form submissions, and pages that set the cookies or hold the values (hidden fields, <meta>, inline config, data- attributes) later requests send.`;
}

/** For the person converting, not for the flow: the flow never names hosts it dropped. */
function droppedHostHints(
  telemetryDropped: Map<string, { count: number; script: string }>,
  apiLikeDropped: Map<string, number>,
): string[] {
  const hints: string[] = [];
  for (const [host, { count, script }] of telemetryDropped) {
    hints.push(
      `Dropped ${plural(count, "request")} to ${host} as telemetry: it served the page a ` +
        `script (${script}) and received no cookie or credential of the app; keep ${
          pluralWord(count, "it", "them")
        } with --include-host ${host} (and the app's own host).`,
    );
  }
  for (const [host, n] of apiLikeDropped) {
    hints.push(
      `Dropped ${plural(n, "API-like request")} to ${host} as another site's; keep ${
        pluralWord(n, "it", "them")
      } with --include-host ${host} (and the app's own host).`,
    );
  }
  return hints;
}

/** Dropped entries by reason, those that were never records first. */
function countDropped(parsed: ParsedHar, dropped: Map<HarRecord, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  const drop = (reason: string, n = 1) => counts[reason] = (counts[reason] ?? 0) + n;
  if (parsed.invalid > 0) drop("no valid URL", parsed.invalid);
  if (parsed.badMethods > 0) drop("a method flowrun cannot send", parsed.badMethods);
  for (const reason of dropped.values()) drop(reason);
  return counts;
}

/** The error when every entry was dropped: what they were dropped as. */
function nothingKept(parsed: ParsedHar, counts: Record<string, number>): UsageError {
  const reasons = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${reason} (${n})`).join(", ");
  return new UsageError(
    "bad-har",
    parsed.total === 0
      ? "The HAR has no API requests: its log.entries list is empty."
      : `The HAR has no API requests: ${
        plural(parsed.total, "entry", "entries")
      }, all dropped as ${reasons}.`,
    "Record the session with the network panel open, or name the API host with --include-host HOST.",
  );
}

/**
 * A run's own `--report-har` (creator `flowrun`) holds only what its flows
 * sent, to every host they named: each host is kept, as if given with
 * `--include-host`, unless the user gave hosts.
 */
function flowrunHosts(parsed: ParsedHar, options: NoiseOptions): NoiseOptions {
  if (parsed.creator !== "flowrun" || (options.includeHosts?.length ?? 0) > 0) return options;
  return { ...options, includeHosts: [...new Set(parsed.records.map((r) => r.url.host))] };
}
