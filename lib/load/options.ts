/**
 * `options` of a step or a flow: how its requests are sent. `timeout`,
 * `follow_redirects`, `delay`, `cookie_jar` and `retry` (`{count, on, delay}`, or just a
 * count); a step's options override its flow's key by key.
 *
 * @module
 */
import { isScalar, isSeq } from "yaml";
import type { Retry, StepOptions } from "../flow.ts";
import { MAX_TIMEOUT_MS } from "../limits.ts";
import { describe, type Entry, type Loading } from "./context.ts";

/** The most retries a request may have. */
export const MAX_RETRIES = 10;
/** The longest wait a delay or a retry may ask for. */
const MAX_WAIT_MS = 3_600_000;
/** The first wait before a retry when `retry` does not give one; it doubles at each retry. */
export const DEFAULT_RETRY_DELAY_MS = 100;

/** An `options` map. */
export function loadOptions(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): StepOptions | undefined {
  if (!entry) return undefined;
  const map = ctx.map(
    ctx.deref(entry.value),
    `"options" of ${what}`,
    "options",
    ["timeout", "follow_redirects", "delay", "retry", "cookie_jar"],
    { anchor: entry.keyNode },
  );
  if (!map) return undefined;
  const options: StepOptions = {};
  const timeout = map.get("timeout");
  if (timeout) {
    const ms = ctx.duration(timeout, `"timeout" of ${what}`, 1, MAX_TIMEOUT_MS);
    if (ms !== undefined) options.timeoutMs = ms;
  }
  for (
    const [key, field] of [
      ["follow_redirects", "followRedirects"],
      ["cookie_jar", "cookieJar"],
    ] as const
  ) {
    const entry = map.get(key);
    if (!entry) continue;
    const v = isScalar(entry.value) ? entry.value.value : undefined;
    if (typeof v === "boolean") options[field] = v;
    else {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" of ${what} to be true or false, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        key === "cookie_jar"
          ? "Write cookie_jar: true to keep cookies between the flow's requests."
          : "Write follow_redirects: true to follow 3xx responses to the final one.",
      );
    }
  }
  const delay = map.get("delay");
  if (delay) {
    const ms = ctx.duration(delay, `"delay" of ${what}`, 0, MAX_WAIT_MS);
    if (ms !== undefined) options.delayMs = ms;
  }
  const retry = map.get("retry");
  if (retry) {
    const r = loadRetry(ctx, retry, what);
    if (r) options.retry = r;
  }
  return options;
}

/** `retry: 3` or `retry: {count: 3, on: [network, 503], delay: 200ms}`. */
function loadRetry(ctx: Loading, entry: Entry, what: string): Retry | undefined {
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
  const onEntry = map.get("on");
  const on: Retry["on"] = [];
  if (onEntry) {
    const list = ctx.deref(onEntry.value);
    const items = isSeq(list) ? list.items.map((i) => ctx.deref(i)) : [list];
    for (const item of items) {
      const v = isScalar(item) ? item.value : undefined;
      if (v === "network") on.push("network");
      else if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) on.push(v);
      else {
        ctx.problem(
          "wrong-type",
          `Expected "retry.on" of ${what} to list "network" and status codes, got ${
            describe(item)
          }.`,
          item ?? onEntry.keyNode,
          "For example: on: [network, 502, 503, 504].",
        );
      }
    }
  } else on.push("network");
  if (count === undefined || delayMs === undefined) return undefined;
  return { count, on, delayMs };
}
