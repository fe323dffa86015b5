/**
 * Repeated requests: consecutive identical GETs are one step. When a
 * status-like field of their JSON changes, the step polls with a bounded
 * `loop` until the last recorded value; when, after a write, counts in it
 * moved (poll_counts.ts), until they reach their last recorded values;
 * otherwise the repeats are dropped.
 *
 * @module
 */
import type { HarRecord, NameValue } from "./har_model.ts";
import type { JsonPath, Step } from "./model.ts";
import { isWebSocket } from "./har_websocket.ts";
import { cleanHeaders } from "./noise_headers.ts";
import { type CountBound, countBounds } from "./poll_counts.ts";
import { STATUS_KEY } from "./values.ts";
import type { YScalar } from "./yaml_out.ts";

/**
 * Headers whose values a server expects to be new on every request.
 *
 * @example
 * ```ts
 * import { FRESH_HEADER } from "./polls.ts";
 * if (!FRESH_HEADER.test("Idempotency-Key") || FRESH_HEADER.test("Accept")) throw new Error();
 * ```
 */
export const FRESH_HEADER = /idempot|nonce|^x-request-id$|^request-id$|^x-correlation-id$/i;

/**
 * The repeats of a read dropped before the one kept, when their answers
 * differed: the page read until it saw something (a write's effect).
 *
 * @example
 * ```ts
 * import { EARLIER_READS, groupRequests } from "./polls.ts";
 * import { loadBodies } from "./har_bodies.ts";
 * import { parseHar } from "./har_model.ts";
 * const read = (text: string) => ({
 *   request: { method: "GET", url: "https://app.test/notes" },
 *   response: { status: 200, content: { mimeType: "text/html", text } },
 * });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [read("none"), read("Harbour")] } }), []);
 * loadBodies(records, []);
 * const { groups } = groupRequests(records);
 * if (EARLIER_READS.get(groups[0].records[0])?.[0] !== records[0]) throw new Error();
 * ```
 */
export const EARLIER_READS: WeakMap<HarRecord, HarRecord[]> = new WeakMap();

/** One step's records: one request, or a run of polls with the loop that replays them. */
export interface Group {
  records: HarRecord[];
  loop?: Step["loop"];
}

/**
 * Groups the session's records into steps; `repeats` counts the requests
 * folded into an earlier one.
 *
 * @example
 * ```ts
 * import { groupRequests } from "./polls.ts";
 * import { loadBodies } from "./har_bodies.ts";
 * import { parseHar } from "./har_model.ts";
 * const poll = (state: string, ms: number) => ({
 *   startedDateTime: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(),
 *   request: { method: "GET", url: "https://app.test/jobs/7" },
 *   response: { status: 200, content: { mimeType: "application/json", text: JSON.stringify({ state }) } },
 * });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [poll("queued", 0), poll("done", 500)] } }), []);
 * loadBodies(records, []);
 * const { groups, repeats } = groupRequests(records);
 * if (groups.length !== 1 || repeats !== 1 || groups[0].loop?.value !== "done") throw new Error();
 * ```
 */
export function groupRequests(ordered: HarRecord[]): { groups: Group[]; repeats: number } {
  const groups: Group[] = [];
  let repeats = 0;
  for (let i = 0; i < ordered.length;) {
    let j = i + 1;
    while (j < ordered.length && sameRequest(ordered[i], ordered[j])) j++;
    const group = ordered.slice(i, j);
    const before = ordered.slice(Math.max(0, i - 3), i);
    i = j;
    if (group.length === 1) {
      groups.push({ records: group });
      continue;
    }
    repeats += group.length - 1;
    const field = pollField(group);
    const counts = field ? [] : countBounds(group, before);
    if (!field && counts.length > 0) {
      groups.push({ records: group, loop: countLoop(group, counts) });
      continue;
    }
    if (!field) {
      // When the answers differ, the last is what the requests after it were built from: a page
      // that hands out a single-use token each time (Shaarli's list, read again after a save)
      // links the last one.
      const same = group.every((r) => r.responseText === group[0].responseText);
      const kept = same ? group[0] : group[group.length - 1];
      // The reads before it are evidence of a wait: what they lacked, the last showed (shown_later.ts).
      if (!same) EARLIER_READS.set(kept, group.slice(0, -1));
      groups.push({ records: [kept] });
      continue;
    }
    const values: string[] = [];
    for (const v of field.values) {
      const text = typeof v === "string" ? v : JSON.stringify(v) ?? "?";
      if (values[values.length - 1] !== text) values.push(text);
    }
    groups.push({
      records: group,
      loop: {
        ...pollPace(group),
        path: field.path,
        value: field.values[field.values.length - 1] as YScalar,
        values,
      },
    });
  }

  return { groups, repeats };
}

/** How often and how long a loop replaying `group` reads: twice the recorded reads, as far apart. */
function pollPace(group: HarRecord[]): { maxAttempts: number; sleepMs: number } {
  const gaps = group.slice(1).map((r, k) =>
    r.started !== undefined && group[k].started !== undefined ? r.started - group[k].started! : NaN
  ).filter((g) => Number.isFinite(g) && g >= 0);
  const sleep = gaps.length > 0 ? Math.round(median(gaps) / 10) * 10 : 1000;
  return {
    maxAttempts: Math.min(100, Math.max(5, group.length * 2)),
    sleepMs: Math.min(10_000, Math.max(100, sleep)),
  };
}

/** The loop of reads that waited for counts to move (poll_counts.ts). */
function countLoop(group: HarRecord[], bounds: CountBound[]): NonNullable<Group["loop"]> {
  // One value for all the bounds together: the flow's comment joins a loop's values with arrows.
  const values = [
    bounds.map((b) => `${b.path.join(".")} ${b.op === "gte" ? "≥" : "≤"} ${b.value}`)
      .join(", "),
  ];
  return { ...pollPace(group), path: bounds[0].path, value: bounds[0].value, values, bounds };
}

/** Consecutive identical GETs: same URL, same kept headers and cookies, no body. */
function sameRequest(a: HarRecord, b: HarRecord): boolean {
  if (a.method !== "GET" || b.method !== "GET" || a.url.href !== b.url.href) return false;
  // Two sockets are two conversations, not a poll.
  if (isWebSocket(a) || isWebSocket(b)) return false;
  if ((a.bodyText ?? "") !== (b.bodyText ?? "")) return false;
  return JSON.stringify(meaningfulHeaders(a)) === JSON.stringify(meaningfulHeaders(b));
}

/**
 * Headers that change what a request asks for: not the ones a client makes
 * anew for each request (tracing, request ids, nonces, clocks) nor cookies an
 * analytics script rewrites between two polls.
 */
const COSMETIC_HEADER =
  /^(traceparent|tracestate|baggage|sentry-trace|x-b3-.*|b3|x-datadog-.*|x-amzn-trace-id|x-cloud-trace-context|x-client-(time|timestamp)|x-timestamp|date|cookie|if-none-match|if-modified-since)$/i;

function meaningfulHeaders(r: HarRecord): NameValue[] {
  return cleanHeaders(r.headers).filter(({ name }) =>
    !COSMETIC_HEADER.test(name) && !FRESH_HEADER.test(name)
  );
}

/** The first status-like field (top level or one level down) whose value changes in the group. */
function pollField(group: HarRecord[]): { path: JsonPath; values: unknown[] } | undefined {
  const last = group[group.length - 1];
  if (!group.every((r) => r.hasJson) || typeof last.json !== "object" || last.json === null) {
    return undefined;
  }
  const candidates: JsonPath[] = [];
  for (const [k, v] of Object.entries(last.json)) {
    if (STATUS_KEY.test(k)) candidates.push([k]);
    else if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      for (const k2 of Object.keys(v)) if (STATUS_KEY.test(k2)) candidates.push([k, k2]);
    }
  }
  for (const path of candidates) {
    const values = group.map((r) => {
      let v: unknown = r.json;
      for (const p of path) v = (v as Record<string, unknown> | null)?.[p as string];
      return v;
    });
    const final = values[values.length - 1];
    if (!["string", "boolean", "number"].includes(typeof final)) continue;
    if (new Set(values.map((v) => JSON.stringify(v))).size > 1) return { path, values };
  }
  return undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
