/**
 * Lookup tables keyed by text from the input (a body's language, a schema's
 * `format`, a script's method name, a file's extension), made without a
 * prototype: a plain object answers `constructor`, `toString` or `__proto__`
 * with Object's own members, which crashed the converters (exit 3) on a
 * Postman variable named `constructor`.
 *
 * @module
 */

/**
 * A frozen table holding only `entries`: looking up any other key, however
 * named, is undefined.
 *
 * @example
 * ```ts
 * import { table } from "./table.ts";
 * const LANGUAGES = table({ json: "application/json" });
 * if (LANGUAGES.json !== "application/json" || LANGUAGES["constructor"] !== undefined) throw new Error();
 * ```
 */
export function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null), entries));
}
