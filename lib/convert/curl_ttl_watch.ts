/**
 * A watch that waits for a time to live the page set: a key-value store's
 * API page makes a directory with `-d ttl=30`, then watches it
 * (`?wait=true`) for the expiry event, which comes when those 30 seconds run
 * out. curl waits as long as it takes; the flow's request gave up at the
 * runner's 30 s, just before the event, and the page's next create found the
 * directory still there (403 where curl got 201). A read whose query sets a
 * `wait` or `watch` flag on a path an earlier command gave a `ttl` of seconds
 * (in its form or its query; on the path itself or one above it, the last
 * write to each path deciding: a write with no TTL makes the key lasting)
 * gets the soonest such TTL plus the runner's default as its timeout, as a
 * held query does (curl_held.ts). A command's own `--max-time` stays.
 *
 * @module
 */
import { DEFAULT_TIMEOUT_MS } from "../run/options.ts";
import type { CurlRecord } from "./curl_request.ts";

/** A flag asking the server to hold the read until something changes. */
const WATCH = /^(?:wait|watch)$/i;

/** A TTL a page sets is seconds or minutes; a longer one is no wait worth holding a run for. */
const LONGEST_S = 600;

/** The body's media type: the record's, or its `Content-Type` header's, lower case. */
function mimeOf(record: CurlRecord["record"]): string | undefined {
  const header = record.headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  return (record.bodyMime ?? header)?.split(";")[0].trim().toLowerCase();
}

/** The TTL in seconds a write sets (form or query), `null` when it sets none. */
function ttlOf(record: CurlRecord["record"]): number | null {
  const form = mimeOf(record) === "application/x-www-form-urlencoded"
    ? new URLSearchParams(record.bodyText ?? "")
    : undefined;
  const text = form?.get("ttl") ?? record.url.searchParams.get("ttl");
  const s = text !== null && /^\d+(?:\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  return s > 0 && s <= LONGEST_S ? s : null;
}

/** Whether the record is a read that waits for a change (`?wait=true`, `?watch=1`). */
const isWatch = (record: CurlRecord["record"]) =>
  record.method === "GET" &&
  [...record.url.searchParams].some(([k, v]) => WATCH.test(k) && /^(?:true|1|yes)$/i.test(v));

/** The path and every path above it: `/a/b` gives `/a/b`, `/a`. */
function pathAndAbove(path: string): string[] {
  const parts = path.replace(/\/+$/, "").split("/");
  return parts.map((_, i) => parts.slice(0, parts.length - i).join("/")).filter((p) => p !== "");
}

/** What the last write to a path set: its TTL (`null` for none) and the command's line. */
type LastWrite = { ttl: number | null; line: number };

/**
 * Gives each watch on a path that an earlier write gave a TTL the time to wait for it, with a
 * note; returns how many.
 *
 * @example
 * ```ts
 * import { ttlWatches } from "./curl_ttl_watch.ts";
 * const put = { method: "PUT", url: new URL("http://a.test/k"), headers: [], bodyMime: "application/x-www-form-urlencoded", bodyText: "ttl=30" };
 * const get = { method: "GET", url: new URL("http://a.test/k?wait=true"), headers: [] };
 * const built = [put, get].map((record, i) => ({
 *   command: { line: i + 1 },
 *   records: [{ record, extras: { options: {} as { timeout?: string }, ignored: [], notes: [] } }],
 *   notes: [] as string[],
 * }));
 * // deno-lint-ignore no-explicit-any
 * if (ttlWatches(built as any) !== 1 || built[1].records[0].extras.options.timeout !== "60s") throw new Error();
 * ```
 */
export function ttlWatches(
  built: readonly { command: { line: number }; records: CurlRecord[]; notes: string[] }[],
): number {
  const last = new Map<string, LastWrite>();
  let count = 0;
  for (const b of built) {
    for (const { record, extras } of b.records) {
      const where = `${record.url.origin}${record.url.pathname.replace(/\/+$/, "")}`;
      if (record.method !== "GET") last.set(where, { ttl: ttlOf(record), line: b.command.line });
      if (!isWatch(record) || extras.options.timeout !== undefined) continue;
      const set = pathAndAbove(record.url.pathname).map((p) => last.get(record.url.origin + p))
        .filter((w): w is { ttl: number; line: number } => w?.ttl != null)
        .sort((a, b) => a.ttl - b.ttl)[0];
      if (set === undefined) continue;
      const timeout = `${Math.ceil(set.ttl + DEFAULT_TIMEOUT_MS / 1000)}s`;
      extras.options = { ...extras.options, timeout };
      b.notes.push(
        `it waits for the time to live (${set.ttl} s, given at line ${set.line}) to run out, as curl does: its timeout is ${timeout}.`,
      );
      count++;
    }
  }
  return count;
}
