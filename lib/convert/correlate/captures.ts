/**
 * A producer used: the value a response handed out becomes a capture of its
 * step (declared once per source) and the using step refers to it. List
 * indexes in the capture's path become filters on a field that tells the
 * element apart, since a fresh instance lists its items in another order.
 *
 * @module
 */
import type { JsonPath, Producer, Source, Step } from "../model.ts";
import { valueKey } from "../json.ts";
import { captureName } from "../names.ts";
import type { Correlator } from "./state.ts";
import { locationIdKeys } from "./location_ids.ts";
import { memberById } from "./rpc_batch.ts";
import { noteCaptured } from "./captured_values.ts";
import { drawnFromNumber, namesRow } from "./row_name.ts";

/** Fields that name a list element, tried first when one must be told apart from the others. */
const NAME_KEY = /^(name|title|slug|key|code|label|handle|username|login|email|sku)$/i;

/**
 * The producer of `value` (the default rule: the first response that handed
 * it out).
 *
 * @example
 * ```ts
 * import { producerFor } from "./captures.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * if (producerFor(c, "ord_1") !== undefined) throw new Error();
 * ```
 */
export function producerFor(c: Correlator, value: unknown): Producer | undefined {
  return c.producers.get(valueKey(value));
}

/** What a capture from a header is named by: its query parameter, its `Link` relation, the id its regex finds, or the header. */
function headerKeys(source: Exclude<Source, { kind: "json" }>): string[] {
  if (source.kind === "bytes") return ["body"];
  if (source.kind !== "header") return [source.name];
  if (source.query) return [source.query];
  if (source.rel) return [source.rel];
  if (source.regex && source.name === "set-cookie") return cookieKeys(source.regex);
  return source.regex ? locationIdKeys(source.regex) : [source.name];
}

/**
 * A cookie read by a pattern is named by its name's words; the group that is its name's piece
 * (cookie_names.ts) is the instance's id, named `instance`: named after the cookie's words
 * (`csrf_token_name`) it read as a secret's name, and its value, an id the instance hands out in
 * the clear, was masked in every answer that holds it.
 */
function cookieKeys(regex: string): string[] {
  const head = regex.slice(0, regex.indexOf("(")).replace(/\[[^\]]*\][+*]?/g, "");
  if (!head.endsWith("=")) return ["instance"];
  const words = head.match(/[A-Za-z]+/g) ?? ["cookie"];
  return [words.join("_").toLowerCase()];
}

/**
 * The reference that sends a producer's value from `user`: its capture,
 * declared on the producing step at the first use.
 *
 * @example
 * ```ts
 * import { useProducer } from "./captures.ts";
 * import { emptyCorrelator } from "./state.ts";
 * import { UniqueNames } from "../names.ts";
 * const c = emptyCorrelator("a", true);
 * const step = { name: "create_order", noun: "order", captures: [], captureNames: new UniqueNames(), captureByPath: new Map(), uses: new Set(), last: { json: { id: "o1" } } };
 * const user = { uses: new Set<string>() };
 * // deno-lint-ignore no-explicit-any
 * const ref = useProducer(c, { step, source: { kind: "json", path: ["id"] }, secret: false } as any, user as any);
 * if (ref !== "${steps.create_order.capture.order_id}") throw new Error(ref);
 * ```
 */
export function useProducer(c: Correlator, p: Producer, user: Step): string {
  const source: Source = p.source.kind === "json"
    ? { ...p.source, path: stablePath(c, p.step, p.source.path) }
    : p.source;
  const sourceKey = JSON.stringify(source);
  let name = p.step.captureByPath.get(sourceKey);
  if (!name) {
    const keys = source.kind === "json"
      ? (source.name
        ? [source.name]
        : source.path.filter((x): x is string => typeof x === "string"))
      : headerKeys(source);
    const base = captureName(keys, p.step.noun);
    // The same id taken as a number too (a Location path's row number) is named for its type.
    const typed = source.kind === "header" && source.as ? `${base}_${source.as}` : base;
    name = p.step.captureNames.take(typed);
    p.step.captureByPath.set(sourceKey, name);
    p.step.captures.push([name, source]);
  }
  noteCaptured(c, p);
  user.uses.add(p.step.name);
  if (p.secret) c.replaced.tokens++;
  else c.replaced.ids++;
  return c.sp.capRef(p.step.name, name);
}

/**
 * The path with each list index that a field of the element tells apart
 * replaced by a filter on that field: a fresh instance lists its items in
 * another order, so `items[2]` would pick another one.
 *
 * @example
 * ```ts
 * import { stablePath } from "./captures.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { json: { items: [{ name: "Ruby", id: 1 }, { name: "Go", id: 2 }] } };
 * // deno-lint-ignore no-explicit-any
 * const path = stablePath(c, { last } as any, ["items", 1, "id"]);
 * if (JSON.stringify(path) !== '["items",{"key":"name","value":"Go"},"id"]') throw new Error(JSON.stringify(path));
 * ```
 */
export function stablePath(c: Correlator, step: Step, path: JsonPath): JsonPath {
  let node: unknown = step.last.json;
  return path.map((segment, i) => {
    const here = node;
    node = (node as Record<string | number, unknown> | null)?.[segment as string | number];
    if (typeof segment !== "number" || !Array.isArray(here) || i === path.length - 1) {
      return segment;
    }
    // A JSON-RPC batch's answer is matched to its calls by `id`, in whatever order it comes.
    const member = i === 0 ? memberById(step.first, here, node) : undefined;
    return member ?? discriminator(c, here, node, path[i + 1]) ?? segment;
  });
}

/** A date and a time of day (ISO 8601 or SQL's spelling): when an instance made a row. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** Whether `value` under `key` could tell a list element apart: short text, no URL, id or secret. */
function canName(c: Correlator, key: string, value: unknown): value is string {
  // An absolute URL names where the recording ran (Parse Dashboard's `serverURL`): a fresh
  // instance at another base URL lists the same element under another one. A date-time is
  // when the instance made the row (MailDev's `time`): a fresh one stamps the same row anew.
  return namesRow(c, key, value) && !/^[a-z][\w+.-]*:\/\//i.test(value) &&
    !DATE_TIME.test(value);
}

/** A short text field of `item` that no other element of `list` shares, ids and secrets aside. */
function discriminator(
  c: Correlator,
  list: unknown[],
  item: unknown,
  next: JsonPath[number],
): { key: string; value: string } | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
  const fields = Object.entries(item as Record<string, unknown>);
  const preferred = fields.filter(([k]) => NAME_KEY.test(k));
  const id = (item as Record<string, unknown>)[next as string];
  for (const [key, value] of [...preferred, ...fields]) {
    if (key === next || !canName(c, key, value) || drawnFromNumber(id, value)) continue;
    const same = list.filter((e) =>
      typeof e === "object" && e !== null && (e as Record<string, unknown>)[key] === value
    );
    if (same.length === 1) return { key, value: c.generated.get(value) ?? value };
  }
  return undefined;
}
