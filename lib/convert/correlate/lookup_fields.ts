/**
 * Fields a session sends with several words: a lookup, never a credential.
 * A user has one credential per field, and a page sends it the same at each
 * request; phpMyAdmin's script sends `key=NavigationWidth`, `key=Console`
 * and `key=Console/Mode` to read and write its settings. A field the
 * recording sends with two or more distinct values, each words (and
 * counts), is a setting's or an item's name, whatever the field is called.
 * So is a bare `key` beside a `value` in one object (`{"key": "Zm9v",
 * "value": "YmFy"}`, a tag's `{"Key": "env", "Value": "prod"}`): the key of a
 * key-value pair, which a credential never is; etcd's docs then read that
 * key back alone (`{"key": "Zm9v"}`), so the field is a lookup everywhere. So is a bare `key`
 * a query's criteria compare with words (`{"where": {"key": "browser.panels.settings"}}`).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { MAX_WALK_DEPTH, parseBody } from "../json.ts";
import { isSecretShaped } from "../values.ts";

/** Words, or words and counts, joined by `.`, `:`, `/`, `_` or `-`: `object:440`, `Console/Mode`. */
const WORDS_AND_COUNTS = /^[a-z]+(?:[.:/_-](?:[a-z]+|\d+))*$/i;

/**
 * Whether `value` is words and counts, none of them shaped like a secret.
 *
 * @example
 * ```ts
 * import { isWords } from "./lookup_fields.ts";
 * if (!isWords("Console/Mode") || isWords("k3y-9f2c7e1a55")) throw new Error();
 * ```
 */
export function isWords(value: string): boolean {
  return WORDS_AND_COUNTS.test(value) && !value.split(/[.:/_-]/).some(isSecretShaped);
}

/** The string fields a request sends: its query's, its urlencoded or JSON body's top level. */
function sentFields(r: HarRecord): [string, string][] {
  const fields = [...r.url.searchParams];
  if (!r.bodyText) return fields;
  try {
    const json = parseBody(r.bodyText);
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      for (const [k, v] of Object.entries(json)) if (typeof v === "string") fields.push([k, v]);
    }
  } catch {
    if (/urlencoded/.test(r.bodyMime ?? "")) fields.push(...new URLSearchParams(r.bodyText));
  }
  return fields;
}

/**
 * The names of the fields `records` send with two or more distinct values,
 * every one of them words.
 *
 * @example
 * ```ts
 * import { lookupFields } from "./lookup_fields.ts";
 * const r = (q: string) => ({ url: new URL(`http://a.test/c?${q}`) });
 * // deno-lint-ignore no-explicit-any
 * const found = lookupFields([r("key=Console"), r("key=Width"), r("api_key=k3y-9f2c7e1a55")] as any);
 * if (!found.has("key") || found.has("api_key")) throw new Error();
 * ```
 */
export function lookupFields(records: readonly HarRecord[]): Set<string> {
  const values = new Map<string, Set<string>>();
  for (const r of records) {
    for (const [k, v] of sentFields(r)) {
      if (!values.has(k)) values.set(k, new Set());
      values.get(k)!.add(v);
    }
  }
  const found = pairedKeys(records);
  for (const [k, seen] of values) {
    if (seen.size >= 2 && [...seen].every(isWords)) found.add(k);
  }
  namedElsewhere(records, found);
  return found;
}

/**
 * Adds a bare `key` whose words the API also names in a path (`GET /settings?key=theme` beside
 * `PUT /settings/theme`): an item's name, which a credential never is.
 */
function namedElsewhere(records: readonly HarRecord[], found: Set<string>): void {
  const segments = new Set<string>();
  for (const r of records) {
    for (const s of r.url.pathname.split("/")) if (s !== "") segments.add(safeDecode(s));
  }
  for (const r of records) {
    for (const [k, v] of r.url.searchParams) {
      if (/^keys?$/i.test(k) && isWords(v) && segments.has(v)) found.add(k);
    }
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A JSON body's objects, nested ones too, as deep as the walk goes. */
function objectsIn(value: unknown, depth = 0): Record<string, unknown>[] {
  if (typeof value !== "object" || value === null || depth > MAX_WALK_DEPTH) return [];
  const inner = Object.values(value).flatMap((v) => objectsIn(v, depth + 1));
  return Array.isArray(value) ? inner : [value as Record<string, unknown>, ...inner];
}

/** The names of bare `key` fields that some JSON body sends beside a `value`: pairs' keys. */
function pairedKeys(records: readonly HarRecord[]): Set<string> {
  const found = new Set<string>();
  for (const r of records) {
    if (!r.bodyText || !/^\s*[[{]/.test(r.bodyText)) continue;
    let json: unknown;
    try {
      json = parseBody(r.bodyText);
    } catch {
      continue;
    }
    for (const o of objectsIn(json)) {
      const names = Object.keys(o);
      const key = names.find((n) => /^key$/i.test(n));
      if (key && names.some((n) => /^value$/i.test(n))) found.add(key);
    }
    queriedKeys(json, found);
  }
  return found;
}

/** The name of an object a query language compares rows with: `where`, `filter`, `query`. */
const CRITERIA = /^(?:where|filters?|query|selector|criteria)$/i;

/**
 * Adds the bare `key` fields a query's criteria compare with words (Parse's
 * `{"where": {"key": "browser.panels.settings"}}`): a row's column matched, never a credential,
 * which is sent to be checked, not to be compared.
 */
function queriedKeys(value: unknown, found: Set<string>, depth = 0): void {
  if (typeof value !== "object" || value === null || depth > MAX_WALK_DEPTH) return;
  for (const [name, inner] of Object.entries(value)) {
    if (CRITERIA.test(name) && inner !== null && typeof inner === "object") {
      for (const [k, v] of Object.entries(inner)) {
        if (/^key$/i.test(k) && typeof v === "string" && isWords(v)) found.add(k);
      }
    }
    queriedKeys(inner, found, depth + 1);
  }
}
