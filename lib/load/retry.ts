/**
 * A request's `retry`: a count (`retry: 3`, on network failures) or
 * `{count, on, delay}` naming the statuses to retry on and the first wait,
 * which doubles at each retry.
 *
 * @module
 */
import type { Node } from "yaml";
import { isScalar, isSeq } from "./nodes.ts";
import type { Retry } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { refuseExpression } from "./not_allowed.ts";

/** The most retries a request may have. */
export const MAX_RETRIES = 10;
/** The longest wait a delay or a retry may ask for. */
export const MAX_WAIT_MS = 3_600_000;
/** The first wait before a retry when `retry` does not give one; it doubles at each retry. */
export const DEFAULT_RETRY_DELAY_MS = 100;

/** `on`: "network" and status codes; network failures only when not given. */
function retryOn(ctx: Loading, onEntry: Entry | undefined, what: string): Retry["on"] {
  if (!onEntry) return ["network"];
  const on: Retry["on"] = [];
  const list = ctx.deref(onEntry.value);
  const items: (Node | null)[] = isSeq(list) ? list.items.map((i) => ctx.deref(i)) : [list];
  for (const item of items) {
    const v = isScalar(item) ? item.value : undefined;
    if (v === "network") on.push("network");
    else if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) on.push(v);
    else if (!refuseExpression(ctx, item, `"retry.on" of ${what}`)) {
      ctx.problem(
        "wrong-type",
        `Expected "retry.on" of ${what} to list "network" and status codes, got ${describe(item)}.`,
        item ?? onEntry.keyNode,
        "For example: on: [network, 502, 503, 504].",
      );
    }
  }
  return on;
}

/**
 * `retry: 3` or `retry: {count: 3, on: [network, 503], delay: 200ms}`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    options: {retry: {count: 2, on: [503]}}\n",
 *   "f.yaml",
 * );
 * const retry = flow?.steps[0].options?.retry;
 * if (retry?.count !== 2 || retry.on.join() !== "503" || retry.delayMs !== 100) throw new Error();
 * ```
 */
export function loadRetry(ctx: Loading, entry: Entry, what: string): Retry | undefined {
  const node = ctx.deref(entry.value);
  if (isScalar(node)) {
    const count = ctx.integer(entry, `"retry" of ${what}`, 1, MAX_RETRIES);
    return count === undefined
      ? undefined
      : { count, on: ["network"], delayMs: DEFAULT_RETRY_DELAY_MS };
  }
  const map = ctx.map(node, `"retry" of ${what}`, "retry", ["count", "on", "delay"], {
    required: ["count"],
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  const countEntry = map.get("count");
  const count = countEntry && ctx.integer(countEntry, `"retry.count" of ${what}`, 1, MAX_RETRIES);
  const delayEntry = map.get("delay");
  const delayMs = delayEntry
    ? ctx.duration(delayEntry, `"retry.delay" of ${what}`, 0, MAX_WAIT_MS)
    : DEFAULT_RETRY_DELAY_MS;
  const on = retryOn(ctx, map.get("on"), what);
  if (count === undefined || delayMs === undefined) return undefined;
  return { count, on, delayMs };
}
