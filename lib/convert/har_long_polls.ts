/**
 * Long polls: reads the server held until something happened (Syncthing's
 * `/rest/events?since=3`, answered 2.5 s later by the event a parallel call
 * caused). A flow runs its steps one after another, so nothing happens
 * while it waits: replayed, such a read waits for the server's timeout. By
 * the recording's evidence, not the path: a path read again with another
 * query, where twice an answer took at least a second and ten times the
 * recording's typical wait and its query asked from a value an earlier
 * answer of that path handed out (`since=4` after an answer with event 4). Every read of that path is dropped (the first,
 * `?limit=1`, only finds where the feed stands).
 *
 * One held answer is enough when it was held for half the runner's default
 * timeout or more (NocoDB's `/api/v1/notifications/poll` answered
 * `{"status":"refresh"}` after its own 30 s, and the next poll was cut off
 * by the page closing): no request's own work is that slow for a small
 * body, and replayed it meets the runner's timeout, skipping every later
 * step.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { DEFAULT_TIMEOUT_MS } from "../run/options.ts";
import { walk } from "./json.ts";

/** An answer held this long, and this many times the typical wait, was waiting for something. */
const HELD_MS = 1_000;
const HELD_TIMES = 10;

/** An answer held this long was a server's long-poll timeout, even seen once. */
const TIMED_OUT_MS = DEFAULT_TIMEOUT_MS / 2;

/** A held answer is small: one that took long to arrive for its size was a download. */
const SMALL_BYTES = 64 * 1024;

/**
 * How long `r`'s answer took, from the request sent to its last byte
 * (`timings.wait` and `receive`), when recorded. A server may send the
 * headers at once and hold the body (Syncthing's chunked events), so the
 * wait alone is not it.
 */
function waitOf(r: HarRecord): number | undefined {
  const timings = r.raw.timings as Record<string, unknown> | undefined;
  const parts = [timings?.wait, timings?.receive].filter((t): t is number =>
    typeof t === "number" && t >= 0
  );
  return parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : undefined;
}

/** Whether `r`'s answer was held, not slow to download: long for a small body. */
function heldOf(r: HarRecord, held: number): boolean {
  const size = ((r.raw.response as Record<string, unknown> | undefined)?.content as
    | Record<string, unknown>
    | undefined)?.size;
  return (waitOf(r) ?? 0) >= held && (typeof size !== "number" || size <= SMALL_BYTES);
}

/** Whether a query value of `r` is a value an earlier answer in `before` handed out (`since=4`). */
function resumes(r: HarRecord, before: HarRecord[]): boolean {
  const asked = new Set([...r.url.searchParams.values()]);
  return before.some((b) => {
    let found = false;
    if (b.hasJson) {
      walk(b.json, (_p, _k, leaf) => {
        if ((typeof leaf === "string" || typeof leaf === "number") && asked.has(String(leaf))) {
          found = true;
        }
      });
    }
    return found;
  });
}

/**
 * The records of `ordered` that are no long poll, and how many were.
 *
 * @example
 * ```ts
 * import { dropLongPolls } from "./har_long_polls.ts";
 * const read = (path: string, wait: number, id: number) => ({
 *   method: "GET", status: 200, url: new URL(`http://a.test${path}`), raw: { timings: { wait } },
 *   hasJson: true, json: [{ id }],
 * });
 * const records = [
 *   read("/a", 5, 0), read("/events", 5, 1), read("/events?since=1", 2000, 2),
 *   read("/events?since=2", 1500, 3), read("/b", 4, 0),
 * ];
 * // deno-lint-ignore no-explicit-any
 * const { kept, dropped } = dropLongPolls(records as any);
 * if (dropped !== 3 || kept.length !== 2) throw new Error();
 * ```
 */
export function dropLongPolls(ordered: HarRecord[]): { kept: HarRecord[]; dropped: number } {
  const waits = ordered.map(waitOf).filter((w): w is number => w !== undefined).sort((a, b) =>
    a - b
  );
  if (waits.length < 3) return { kept: ordered, dropped: 0 };
  const typical = waits[Math.floor(waits.length / 2)];
  const held = Math.max(HELD_MS, typical * HELD_TIMES);
  const reads = new Map<string, HarRecord[]>();
  for (const r of ordered) {
    if (r.method !== "GET" || r.status === undefined || r.status < 200 || r.status > 299) continue;
    const path = `${r.url.origin}${r.url.pathname}`;
    reads.set(path, [...(reads.get(path) ?? []), r]);
  }
  const polled = new Set<string>();
  for (const [path, series] of reads) {
    const queries = new Set(series.map((r) => r.url.search));
    // Held twice, each time asking from where an earlier answer of the feed stopped: a slow
    // answer (a cold start) or a slow report's page 2 is no feed.
    const waited = series.filter((r, i) => heldOf(r, held) && resumes(r, series.slice(0, i)));
    const timedOut = series.some((r) => heldOf(r, Math.max(held, TIMED_OUT_MS)));
    if (timedOut || (queries.size >= 2 && waited.length >= 2)) polled.add(path);
  }
  const kept = ordered.filter((r) =>
    r.method !== "GET" || !polled.has(`${r.url.origin}${r.url.pathname}`)
  );
  return { kept, dropped: ordered.length - kept.length };
}
