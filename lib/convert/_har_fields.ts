/**
 * Defensive readers of HAR fields: every field may be missing or of another
 * type, and a missing one is an absence, never an exception. Used by
 * `har_model.ts` (entries) and `har_bodies.ts` (bodies).
 *
 * @module
 */
import { fieldText } from "./har_input.ts";

/** One header or cookie as HAR writes it. */
export interface NameValue {
  name: string;
  value: string;
}

/**
 * Whether `v` is a plain JSON object.
 *
 * @example
 * ```ts
 * import { isObject } from "./_har_fields.ts";
 * if (!isObject({}) || isObject([]) || isObject(null)) throw new Error();
 * ```
 */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `v` when it is a string.
 *
 * @example
 * ```ts
 * import { str } from "./_har_fields.ts";
 * if (str("a") !== "a" || str(1) !== undefined) throw new Error();
 * ```
 */
export const str = (v: unknown): string | undefined => typeof v === "string" ? v : undefined;

/**
 * Lower-case mime type without parameters.
 *
 * @example
 * ```ts
 * import { baseMime } from "./_har_fields.ts";
 * if (baseMime("Application/JSON; charset=utf-8") !== "application/json") throw new Error();
 * ```
 */
export function baseMime(value: string | undefined): string {
  return (value ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * A HAR list of `{name, value}` (headers, cookies), entries without a name
 * skipped.
 *
 * @example
 * ```ts
 * import { nameValues } from "./_har_fields.ts";
 * if (nameValues([{ name: "a", value: "1" }, { value: "x" }, 3]).length !== 1) throw new Error();
 * ```
 */
export function nameValues(list: unknown): NameValue[] {
  if (!Array.isArray(list)) return [];
  const out: NameValue[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const name = str(item.name);
    if (name === undefined || name === "") continue;
    const value = item.value;
    out.push({
      name,
      value: fieldText(value),
    });
  }
  return out;
}

/**
 * Parses `a=1; b=2` into cookies (the value keeps any `=` it holds).
 *
 * @example
 * ```ts
 * import { parseCookieHeader } from "./_har_fields.ts";
 * if (parseCookieHeader("a=1; b=x=y")[1].value !== "x=y") throw new Error();
 * ```
 */
export function parseCookieHeader(value: string): NameValue[] {
  const out: NameValue[] = [];
  for (const part of value.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    out.push({ name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() });
  }
  return out;
}
