/**
 * Writing a key that comes from outside (a YAML key, an HTTP header name)
 * into a plain object: `__proto__` must become an own member, not the
 * object's prototype, and `constructor` or `toString` must not be mistaken
 * for one already there.
 *
 * @module
 */

/**
 * Sets `record[key]` as an own, enumerable, writable member, whatever the key.
 *
 * @example
 * ```ts
 * import { setOwn } from "./own_property.ts";
 * const headers: Record<string, unknown> = {};
 * setOwn(headers, "__proto__", "p-1");
 * setOwn(headers, "constructor", "c-1");
 * if (Object.getPrototypeOf(headers) !== Object.prototype) throw new Error();
 * if (Object.keys(headers).join() !== "__proto__,constructor" || headers["constructor"] !== "c-1") {
 *   throw new Error();
 * }
 * ```
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key in record) {
    Object.defineProperty(record, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else record[key] = value;
}

/**
 * `record[key]` when the record has it as its own member, else `undefined`:
 * a lookup by a key that comes from outside never finds `Object.prototype`'s
 * `constructor` or `toString`.
 *
 * @example
 * ```ts
 * import { getOwn } from "./own_property.ts";
 * const hints: Record<string, string> = { tests: 'Steps go under "steps".' };
 * if (getOwn(hints, "constructor") !== undefined || getOwn(hints, "__proto__") !== undefined) {
 *   throw new Error();
 * }
 * if (getOwn(hints, "tests") !== 'Steps go under "steps".') throw new Error();
 * ```
 */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
