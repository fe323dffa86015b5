/**
 * What the session writes, and when: a value a later request writes is
 * state the flow changes, so a response's copy of it is not pinned by an
 * `equals` check.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, walk } from "../json.ts";
import type { Correlator } from "./state.ts";

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

/**
 * Remembers each record's position and which body keys each write sends.
 *
 * @example
 * ```ts
 * import { noteWrites, writtenLater } from "./writes.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const read = { method: "GET" };
 * const write = { method: "PATCH", bodyText: '{"status":"done"}' };
 * // deno-lint-ignore no-explicit-any
 * noteWrites(c, [read, write] as any);
 * // deno-lint-ignore no-explicit-any
 * if (!writtenLater(c, "status", read as any) || writtenLater(c, "status", write as any)) throw new Error();
 * ```
 */
export function noteWrites(c: Correlator, records: HarRecord[]): void {
  records.forEach((r, i) => {
    c.position.set(r, i);
    if (!WRITES.includes(r.method) || !r.bodyText) return;
    let body: unknown;
    try {
      body = parseBody(r.bodyText);
    } catch {
      body = Object.fromEntries(new URLSearchParams(r.bodyText));
    }
    walk(body, (path) => {
      for (const key of path) if (typeof key === "string") c.lastWritten.set(key, i);
    });
  });
}

/**
 * Whether a later request of the session writes `key`: its value here is
 * not for `equals` (see {@linkcode noteWrites}).
 *
 * @example
 * ```ts
 * import { noteWrites, writtenLater } from "./writes.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const [read, write] = [{ method: "GET" }, { method: "PUT", bodyText: '{"title":"x"}' }];
 * // deno-lint-ignore no-explicit-any
 * noteWrites(c, [read, write] as any);
 * // deno-lint-ignore no-explicit-any
 * if (!writtenLater(c, "title", read as any)) throw new Error();
 * ```
 */
export function writtenLater(c: Correlator, key: string, r: HarRecord): boolean {
  return (c.lastWritten.get(key) ?? -1) > (c.position.get(r) ?? Infinity);
}
