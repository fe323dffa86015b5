/**
 * Large numbers an answer hands out under any key. A JSON number is a
 * producer by its key's name (`id`, `…_id`: looksLikeId) or not at all, but
 * an API may number a thing under a plain word: rspamd's controller lists
 * each map as `{"map": 2152313847, "description": …}`, the number a hash of
 * where that instance keeps it, and its web UI sends it back as text in a
 * `Map:` header. Evidence decides, not the key: an integer of seven digits or
 * more that a later request sends again is one only that answer could have
 * given (a count, a page size or a year is shorter), so it is captured,
 * unless it is round: a size or a period someone chose (qBittorrent's
 * `"disk_queue_size": 1048576`, a settings form sends it back as read) is a
 * multiple of 1,000 or 1,024, the same on every instance. A
 * request sends it as a JSON number or as text (a header, a query, a path),
 * so both are recorded as coming from the same place.
 *
 * @module
 */
import { valueKey } from "../json.ts";
import type { Producer } from "../model.ts";
import type { Correlator } from "./state.ts";

/** The smallest number taken as handed out whatever its key: seven digits. */
const LARGE = 1_000_000;

/**
 * Whether `leaf` is an integer large enough that a request sending it again
 * got it from the answer that held it: seven digits or more, never a
 * fraction (an amount, a score), never round (a chosen size or period).
 *
 * @example
 * ```ts
 * import { isHandedNumber } from "./handed_numbers.ts";
 * if (!isHandedNumber(2152313847) || isHandedNumber(250) || isHandedNumber(1234567.5)) {
 *   throw new Error();
 * }
 * if (isHandedNumber(1048576) || isHandedNumber(5000000) || isHandedNumber("2152313847")) {
 *   throw new Error();
 * }
 * ```
 */
export function isHandedNumber(leaf: unknown): leaf is number {
  if (typeof leaf !== "number" || !Number.isSafeInteger(leaf) || Math.abs(leaf) < LARGE) {
    return false;
  }
  // A random number is a multiple of 1,000 or 1,024 about once in 500 draws; a chosen one often.
  return leaf % 1000 !== 0 && leaf % 1024 !== 0;
}

/**
 * Makes `producer`, the source of the large number `leaf`, the source of its
 * digits as text too (a header, a query or a path sends it so), unless the
 * client sent those digits first or another answer gave them.
 *
 * @example
 * ```ts
 * import { produceNumberText } from "./handed_numbers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const step = {};
 * // deno-lint-ignore no-explicit-any
 * produceNumberText(c, 2152313847, { step, source: { kind: "json", path: [0, "map"] }, secret: false } as any);
 * if (c.producers.get("string:2152313847")?.step !== step) throw new Error();
 * ```
 */
export function produceNumberText(c: Correlator, leaf: number, producer: Producer): void {
  const k = valueKey(String(leaf));
  if (c.producers.has(k) || c.sentSeen.has(k)) return;
  c.producers.set(k, producer);
}
