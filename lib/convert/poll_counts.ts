/**
 * A page that waits by polling a count: after a write, it reads the same
 * list again and again until a number in it moves (Bull Board's queue after
 * "Retry all", read until `"failed": 1` is back). The answers share no
 * status-like field and show no text the write sent, so nothing else tells
 * the replay to wait. The evidence, whatever the keys are called: identical
 * reads right after a write, and a whole number present in every answer that
 * stood still (not a different value on every earlier read) and then moved
 * past every earlier value; reads after it moved that repeat the final value
 * are the page's own pace, not part of the wait. A clock moves on every read, or by about the
 * seconds or milliseconds between the first read and the last, and a time
 * stamp is too large for a count: neither is waited for. The step polls
 * until each such number reaches its final value again, `gte` when it rose
 * and `lte` when it fell, so a count a previous run left higher still passes.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { JsonPath } from "./json.ts";

/** A bound a polled number reaches: the recorded final value, from the side it moved. */
export interface CountBound {
  path: JsonPath;
  op: "gte" | "lte";
  value: number;
}

/** Records before the reads searched for the write that set the work going. */
const AFTER_WRITE = 3;
/** Most bounds one step waits for, and the deepest leaf read. */
const MAX_BOUNDS = 6;
const MAX_DEPTH = 8;
/** Numbers at least this large are time stamps or ids, not counts. */
const TOO_LARGE = 1e9;

/** The whole-number leaves of `value` by path, arrays by index (at most 50 per list). */
function numberLeaves(value: unknown, path: JsonPath = [], out: [JsonPath, number][] = []) {
  if (path.length > MAX_DEPTH || out.length > 500) return out;
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) < TOO_LARGE) {
    out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.slice(0, 50).forEach((v, i) => numberLeaves(v, [...path, i], out));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) numberLeaves(v, [...path, k], out);
  }
  return out;
}

/** The value at `path` in `json`. */
function at(json: unknown, path: JsonPath): unknown {
  let v = json;
  for (const p of path) v = (v as Record<string | number, unknown> | null)?.[p as string];
  return v;
}

/** Whether `values` move like a clock over `elapsedMs` (see the module). */
function clockLike(values: number[], elapsedMs: number): boolean {
  const earlier = values.slice(0, -1);
  if (earlier.length >= 2 && new Set(earlier).size === earlier.length) return true;
  const delta = Math.abs(values[values.length - 1] - values[0]);
  const near = (unit: number) => Math.abs(delta - unit) <= Math.max(1, unit * 0.25);
  return (elapsedMs >= 3000 && near(elapsedMs / 1000)) || (elapsedMs >= 50 && near(elapsedMs));
}

/**
 * The numbers `group` (identical reads) waited for, when a write just before
 * it set the work going (see the module); empty when none.
 *
 * @example
 * ```ts
 * import { countBounds } from "./poll_counts.ts";
 * const read = (failed: number, started: number) =>
 *   ({ method: "GET", hasJson: true, json: { counts: { failed, active: 1 - failed } }, started });
 * const write = { method: "POST" };
 * // deno-lint-ignore no-explicit-any
 * const bounds = countBounds([read(0, 0), read(1, 5000)] as any, [write] as any);
 * if (bounds[0]?.op !== "gte" || bounds[0]?.value !== 1 || bounds[1]?.op !== "lte") throw new Error();
 * ```
 */
export function countBounds(group: HarRecord[], before: readonly HarRecord[]): CountBound[] {
  const wrote = before.slice(-AFTER_WRITE).some((r) => !["GET", "HEAD"].includes(r.method));
  if (!wrote || group.length < 2 || !group.every((r) => r.hasJson)) return [];
  const bounds: CountBound[] = [];
  for (const [path, final] of numberLeaves(group[group.length - 1].json)) {
    const all = group.map((r) => at(r.json, path));
    if (!all.every((v) => typeof v === "number" && Number.isInteger(v))) continue;
    // A page polls at its own pace, so reads after the number moved repeat its final value
    // (Bull Board's): the wait ended at the first of them.
    let settled = all.length - 1;
    while (settled > 0 && all[settled - 1] === final) settled--;
    if (settled === 0) continue;
    const values = (all as number[]).slice(0, settled + 1);
    const earlier = values.slice(0, -1);
    const op = final > Math.max(...earlier) ? "gte" : final < Math.min(...earlier) ? "lte" : "";
    if (!op || clockLike(values, elapsedMs(group[0], group[settled]))) continue;
    bounds.push({ path, op, value: final });
    if (bounds.length === MAX_BOUNDS) break;
  }
  return bounds;
}

/** The milliseconds between two records' starts, 0 when either is unknown. */
function elapsedMs(first: HarRecord, last: HarRecord): number {
  return first.started !== undefined && last.started !== undefined
    ? last.started - first.started
    : 0;
}
