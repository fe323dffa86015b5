/**
 * The string fields a request's body sends, wherever they sit: a form's
 * fields, a multipart body's text parts, a JSON body's members at any depth,
 * and the members of a JSON object a field holds as text. A page's script
 * often posts what the user typed inside a JSON document: LDAP Account
 * Manager's password dialog (new + repeat) sends
 * `{"password1": …, "password2": …}` as the `jsonInput` part of a
 * multipart/form-data post, and reading the top level alone never saw the
 * password typed twice there. A list's items are read as an object's members
 * (a bulk form's `{"users": [{"uid": …, "password1": …}]}`, a top-level list),
 * and a JSON Patch operation (RFC 6902: `{"op": "replace", "path":
 * "/password1", "value": …}`) sends its `value` under its `path`'s last
 * name, the member it writes: a list of such operations is the format's own
 * spelling of a form's fields.
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
 * // A JSON Patch names each value by the member its path writes.
 * const ops = [{ op: "replace", path: "/users/0/password1", value: "Tide-41" }];
 * // deno-lint-ignore no-explicit-any
 * const patched = bodyFields({ bodyMime: "application/json-patch+json", bodyText: JSON.stringify(ops) } as any);
 * if (patched[0].join() !== "password1,Tide-41") throw new Error();
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
    const body = jsonDocument(r.bodyText);
    if (!body) return [];
    // A top-level list's items are read as a member's would be; they have no name of their own.
    // One level up: the body's members are at depth 0, as a form's fields.
    return leaves("", body, -1);
  }
  return pairs.flatMap(([k, v]) => leaves(k, v, 0));
}

/** `text` parsed as a JSON object or list, else undefined (a scalar, no JSON at all). */
function jsonDocument(text: string): object | undefined {
  try {
    const body = parseBody(text);
    return body && typeof body === "object" ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The operations of RFC 6902 that carry a `value`. */
const VALUE_OPS = new Set(["add", "replace", "test"]);

/**
 * The member a JSON Patch operation writes, by its `path`'s last name (a
 * list's index or `-` names no field: `/emails/0` writes `emails`), else
 * undefined when `item` is no such operation.
 */
function patchedName(item: unknown): string | undefined {
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  const { op, path } = item as Record<string, unknown>;
  if (typeof op !== "string" || !VALUE_OPS.has(op) || !("value" in item)) return undefined;
  if (typeof path !== "string" || !path.startsWith("/")) return undefined;
  const names = path.split("/").slice(1).filter((s) => s !== "-" && !/^\d+$/.test(s));
  // RFC 6901's escapes: `~1` is `/`, `~0` is `~`.
  return names.at(-1)?.replaceAll("~1", "/").replaceAll("~0", "~") ?? "";
}

/** The string leaves under `key`: a nested object's members, a list's items, JSON held as text. */
function leaves(key: string, value: unknown, depth: number): [string, string][] {
  // Bounded: a body nests a few levels; deeper is data, not a form's fields.
  if (depth > 8) return [];
  if (typeof value === "string") {
    const held = /^\s*[{[]/.test(value) ? jsonDocument(value) : undefined;
    if (!held) return value === "" ? [] : [[key, value]];
    value = held;
  }
  if (!value || typeof value !== "object") return [];
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const patched = patchedName(item);
      return patched === undefined
        ? leaves(key, item, depth + 1)
        : leaves(patched, (item as { value: unknown }).value, depth + 1);
    });
  }
  return Object.entries(value).flatMap(([k, v]) => leaves(k, v, depth + 1));
}
