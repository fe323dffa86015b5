/**
 * The string fields a request's body sends, wherever they sit: a form's
 * fields, a multipart body's text parts, a JSON body's members at any depth,
 * and the members of a JSON object a field holds as text. A page's script
 * often posts what the user typed inside a JSON document: LDAP Account
 * Manager's password dialog (new + repeat) sends
 * `{"password1": …, "password2": …}` as the `jsonInput` part of a
 * multipart/form-data post, and reading the top level alone never saw the
 * password typed twice there.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { multipartBoundary } from "../har_input.ts";
import { parseBody } from "../json.ts";
import { multipartParts } from "../uploads.ts";

/** Each record's fields, with the text they were read from (a later stage may change it). */
const parsedFields = new WeakMap<HarRecord, { text?: string; fields: [string, string][] }>();

/**
 * The non-empty string fields of `r`'s body by their own name (a nested
 * member by its key), read once per body text.
 *
 * @example
 * ```ts
 * import { bodyFields } from "./body_fields.ts";
 * const json = encodeURIComponent('{"password1":"Tide-41","password2":"Tide-41","random":false}');
 * const r = { bodyMime: "application/x-www-form-urlencoded", bodyText: `jsonInput=${json}&a=b`, headers: [] };
 * // deno-lint-ignore no-explicit-any
 * const fields = bodyFields(r as any);
 * if (fields.filter(([, v]) => v === "Tide-41").length !== 2) throw new Error();
 * ```
 */
export function bodyFields(r: HarRecord): [string, string][] {
  // Asked of every earlier record for each password a request sends: parsed once per body.
  const known = parsedFields.get(r);
  if (known && known.text === r.bodyText) return known.fields;
  const fields = parseFields(r);
  parsedFields.set(r, { text: r.bodyText, fields });
  return fields;
}

/** The fields of `r`'s body, read from its text. */
function parseFields(r: HarRecord): [string, string][] {
  if (!r.bodyText) return [];
  let pairs: [string, unknown][] = [];
  if (r.bodyMime === "application/x-www-form-urlencoded") {
    pairs = [...new URLSearchParams(r.bodyText)];
  } else if (r.bodyMime === "multipart/form-data") {
    // Records made by hand (unit tests) may hold no headers at all.
    const type = (r.headers ?? []).find((h) => h.name.toLowerCase() === "content-type")?.value;
    const parts = multipartParts(r.bodyText, multipartBoundary(type ?? ""));
    pairs = (parts ?? []).filter((p) => p.fileName === undefined).map((p) => [p.name, p.value]);
  } else {
    const body = jsonObject(r.bodyText);
    if (!body) return [];
    pairs = Object.entries(body);
  }
  return pairs.flatMap(([k, v]) => leaves(k, v, 0));
}

/** `text` parsed as a JSON object, else undefined (a list, a scalar, no JSON at all). */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const body = parseBody(text);
    return body && typeof body === "object" && !Array.isArray(body)
      ? body as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}

/** The string leaves under `key`: a nested object's members, a JSON object held as text. */
function leaves(key: string, value: unknown, depth: number): [string, string][] {
  // Bounded: a body nests a few levels; deeper is data, not a form's fields.
  if (depth > 8) return [];
  if (typeof value === "string") {
    const held = /^\s*\{/.test(value) ? jsonObject(value) : undefined;
    if (!held) return value === "" ? [] : [[key, value]];
    value = held;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => leaves(k, v, depth + 1));
}
