/**
 * Results kept by key up to a limit, then forgotten all at once: for values
 * that are costly to build and come back again and again (the same JSONPath,
 * template, pattern or header name in every flow), where keys that never
 * repeat (generated names) must not grow memory without end.
 *
 * @module
 */

/**
 * A map of computed values with a size limit; past it, it starts over.
 *
 * @example
 * ```ts
 * import { BoundedCache } from "./bounded_cache.ts";
 * const cache = new BoundedCache<number>(2);
 * const built: string[] = [];
 * const length = (s: string) => cache.get(s, () => built.push(s) && s.length);
 * length("ab");
 * length("ab");
 * if (built.length !== 1) throw new Error("a kept value is not built again");
 * length("c");
 * length("d"); // the third key: the cache starts over
 * length("ab");
 * if (built.join() !== "ab,c,d,ab") throw new Error(built.join());
 * ```
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();

  /** Keeps at most `limit` values. */
  constructor(readonly limit: number) {}

  /**
   * The value kept for `key`, or the one `compute` builds now (kept, also
   * when undefined). An error `compute` throws is not kept: it is thrown again
   * on the next call.
   */
  get(key: string, compute: () => V): V {
    const known = this.#entries.get(key);
    if (known !== undefined || this.#entries.has(key)) return known as V;
    const value = compute();
    if (this.#entries.size >= this.limit) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }
}
