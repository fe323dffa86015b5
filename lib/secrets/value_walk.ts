/**
 * The walk of `Redactor.redactValue` over a JSON-like value (a step's
 * result, a log record, a HAR entry): each string masked as a value, but
 * the fields of flowrun's own records as its words (see `own_fields.ts`),
 * a registered number replaced, keys kept; nothing copied until something
 * changes, since most results hold no secret.
 *
 * @module
 */
import { jsonHead } from "../_util/json_head.ts";
import { holdsOwn, ownField } from "./own_fields.ts";

/** What the walk asks of a redactor. */
export interface ValueMasks {
  /** A value's text, masked. */
  text(text: string): string;
  /** An own field's text, masked: long secrets only. */
  own(text: string): string;
  /**
   * An own message's text (a check's or a step's `message`, a log line's `error`, a HAR
   * entry's `_error`), when it may
   * quote a value a secret learnt after it was made stands in (default: {@linkcode own}).
   */
  said?(text: string): string;
  /** A number, or what replaces it when it is a registered secret. */
  number(value: number): unknown;
  /** The text of a `{key: text}` pair a request showed as the flow wrote it, or undefined. */
  shown(key: string, text: string): string | undefined;
  /**
   * A header's name, masked but where it is an ordinary word, which names HTTP's own things as a
   * key does (a request's: the runner masked those where a substitution brought them); default
   * {@linkcode text}.
   */
  sentName?(text: string): string;
}

/** Keys of flowrun's own messages (a check's, a step's, a log line's error, a HAR entry's note). */
const SAID = new Set(["message", "error", "_error"]);

/** How deep a value is walked before the rest is masked as its JSON text. */
const WALK_DEPTH = 1000;

/**
 * `value` masked with `masks`; its top is one of flowrun's own records.
 *
 * @example
 * ```ts
 * import { maskValue } from "./value_walk.ts";
 * const masks = {
 *   text: (t: string) => t.replace(/\bpass\b/g, "***"),
 *   own: (t: string) => t,
 *   number: (n: number) => n === 1234 ? "***" : n,
 *   shown: () => undefined,
 * };
 * const v = maskValue({ name: "pass", status: "passed", actual: "pass", duration_ms: 1234, pin: 1234 }, masks);
 * if (JSON.stringify(v) !== '{"name":"pass","status":"passed","actual":"***","duration_ms":1234,"pin":"***"}') throw new Error();
 * ```
 */
export function maskValue<T>(value: T, masks: ValueMasks): T {
  return walk(value, 0, "", masks);
}

/** `value` masked; `own` (the key it stands under, "" at the top) when its records are flowrun's. */
function walk<T>(value: T, depth: number, own: string | undefined, masks: ValueMasks): T {
  if (typeof value === "string") return masks.text(value) as T;
  // Deeper than any flow may nest, a value is masked as its JSON text: walking it would
  // overflow the stack, and no report needs its structure.
  if (depth > WALK_DEPTH && value !== null && typeof value === "object") {
    return masks.text(jsonHead(value, Infinity).text) as T;
  }
  if (typeof value === "number") return masks.number(value) as T;
  if (Array.isArray(value)) return walkList(value, depth, own, masks) as T;
  if (value !== null && typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    return walkRecord(value as Record<string, unknown>, depth, own, masks) as T;
  }
  return value;
}

function walkList(
  list: unknown[],
  depth: number,
  own: string | undefined,
  masks: ValueMasks,
): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const masked = walk(list[i], depth + 1, own, masks);
    if (masked !== list[i]) out ??= list.slice(0, i);
    out?.push(masked);
  }
  return out ?? list;
}

function walkRecord(
  record: Record<string, unknown>,
  depth: number,
  own: string | undefined,
  masks: ValueMasks,
): Record<string, unknown> {
  const keys = Object.keys(record);
  let entries: [string, unknown][] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const [key, item] = [keys[i], record[keys[i]]];
    const masked = maskedField(key, item, record, depth, own, masks);
    if (masked !== item) entries ??= keys.slice(0, i).map((k) => [k, record[k]]);
    entries?.push([key, masked]);
  }
  // fromEntries defines properties, so a "__proto__" key stays a plain key.
  return entries ? Object.fromEntries(entries) : record;
}

/** A field of a record, masked as what it is (see `ownField`). */
function maskedField(
  key: string,
  item: unknown,
  record: Record<string, unknown>,
  depth: number,
  own: string | undefined,
  masks: ValueMasks,
): unknown {
  if (own !== undefined && key === "headers" && isMap(item)) {
    // An ordinary word stays, as a key does: a request's was masked where it was substituted.
    return walkNames(item, depth + 1, sentName(masks), masks);
  }
  const field = own === undefined ? "value" : ownField(key, item, own, record);
  if (field === "kept") return item;
  if (field === "name") return sentName(masks)(item as string);
  if (field === "own") return ownText(item, (SAID.has(key) ? masks.said : undefined) ?? masks.own);
  return (typeof item === "string" ? masks.shown(key, item) : undefined) ??
    walk(item, depth + 1, own !== undefined && holdsOwn(key, item) ? key : undefined, masks);
}

/** How a name a request sent is masked: by {@linkcode ValueMasks.sentName}, else as a value. */
const sentName = (masks: ValueMasks) => masks.sentName ?? masks.text;

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A map of header names to values (a step's request or response headers): a name is what was
 * sent or answered, so a secret in it (`x-${ENV.PIN}`) is masked by `name`, as its value is.
 */
function walkNames(
  map: Record<string, unknown>,
  depth: number,
  name: (text: string) => string,
  masks: ValueMasks,
): Record<string, unknown> {
  const values = walkRecord(map, depth, undefined, masks);
  const keys = Object.keys(values);
  const names = keys.map(name);
  if (names.every((n, i) => n === keys[i])) return values;
  const out: Record<string, unknown> = {};
  for (const [i, key] of keys.entries()) {
    Object.defineProperty(out, names[i], { value: values[key], enumerable: true, writable: true });
  }
  return out;
}

/** An own field's text (or list of names): long secrets masked, short ones are flowrun's words. */
function ownText(item: unknown, own: (text: string) => string): unknown {
  if (typeof item === "string") return own(item);
  if (!Array.isArray(item)) return item;
  const out = item.map((x) => typeof x === "string" ? own(x) : x);
  return out.some((x, i) => x !== item[i]) ? out : item;
}
