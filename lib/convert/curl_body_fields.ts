/**
 * The string fields a curl command's body sends, as the rules about
 * accounts and logins read them: a form's pairs or a JSON object's members.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseBody } from "./json.ts";

/** A field whose name says it holds a password (`password`, `new_password`, `pwd`). */
export const PASSWORD_KEY = /^(pass|passwd|pwd)$|password$/i;

/**
 * Whether the body is a form. A curl record names its body's type in its
 * `Content-Type` header only (`-d`'s form default included), never in `bodyMime`.
 *
 * @example
 * ```ts
 * import { isFormBody } from "./curl_body_fields.ts";
 * const r = { headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }] };
 * // deno-lint-ignore no-explicit-any
 * if (!isFormBody(r as any)) throw new Error();
 * ```
 */
export function isFormBody(r: HarRecord): boolean {
  const type = r.bodyMime ?? r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  return /^application\/x-www-form-urlencoded\b/i.test(type ?? "");
}

/**
 * The string fields of a form or a JSON object body, in order; none for any other body.
 *
 * @example
 * ```ts
 * import { bodyFields } from "./curl_body_fields.ts";
 * const r = { headers: [], bodyText: '{"username":"ann","password":"pw","age":5}' };
 * // deno-lint-ignore no-explicit-any
 * if (JSON.stringify(bodyFields(r as any)) !== '[["username","ann"],["password","pw"]]') throw new Error();
 * ```
 */
export function bodyFields(r: HarRecord): [string, string][] {
  if (!r.bodyText) return [];
  if (isFormBody(r)) return [...new URLSearchParams(r.bodyText)];
  try {
    const body = parseBody(r.bodyText);
    if (!body || typeof body !== "object" || Array.isArray(body)) return [];
    return Object.entries(body).filter((p): p is [string, string] => typeof p[1] === "string");
  } catch {
    return [];
  }
}
