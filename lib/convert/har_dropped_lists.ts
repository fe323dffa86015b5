/**
 * An empty list chrome-har dropped from a JSON body: it writes a list as one
 * name/value pair per item, so `"params": []` makes no pair at all, and the
 * body rebuilt from the pairs lacks the member (a JSON-RPC call with no
 * parameters, `{"method":"system.listMethods","params":[],"id":0}`, comes
 * back as `{"method":"system.listMethods","id":0}`, which Deluge answers
 * `result: null`). The evidence that gives it back: the bytes the browser
 * sent are exactly those of one such member, and the recording's other
 * bodies send that member as a list.
 *
 * @module
 */

/** A body with its lost lists back, and the members made lists again. */
export interface ListsBack {
  text: string;
  restored: string[];
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * `members` with the one member of `listedElsewhere` (those the recording's
 * other request bodies send as lists) put back as an empty list, when that gives `sentBytes` and no other member would;
 * else `undefined`.
 *
 * @example
 * ```ts
 * import { droppedEmptyList } from "./har_dropped_lists.ts";
 * const sent = '{"method":"ping","id":0,"params":[]}';
 * const back = droppedEmptyList({ method: "ping", id: 0 }, sent.length, ["params", "tags"]);
 * if (back?.text !== sent) throw new Error(JSON.stringify(back));
 * ```
 */
export function droppedEmptyList(
  members: Record<string, unknown>,
  sentBytes: number,
  listedElsewhere: Iterable<string>,
): ListsBack | undefined {
  const fits = [...new Set(listedElsewhere)].filter((k) => !Object.hasOwn(members, k))
    .map((k) => ({ k, text: JSON.stringify({ ...members, [k]: [] }) }))
    .filter(({ text }) => byteLength(text) === sentBytes);
  return fits.length === 1 ? { text: fits[0].text, restored: [fits[0].k] } : undefined;
}

/**
 * `members` with the one list member the recording lists elsewhere wrapped
 * in one more list, when that gives `sentBytes` and no other would: chrome-har
 * writes a one-item list of a list (`"params":[["5d…"]]`, a JSON-RPC call
 * whose one parameter is a list) as one pair whose value is the inner list,
 * so the rebuilt body lost the outer brackets, two bytes. Tried only after
 * a scalar member made a list again did not explain the size.
 *
 * @example
 * ```ts
 * import { nestedOneItemList } from "./har_dropped_lists.ts";
 * const sent = '{"method":"pause","params":[["a1"]]}';
 * const back = nestedOneItemList({ method: "pause", params: ["a1"] }, sent.length, () => true);
 * if (back?.text !== sent) throw new Error(JSON.stringify(back));
 * ```
 */
export function nestedOneItemList(
  members: Record<string, unknown>,
  sentBytes: number,
  listedElsewhere: (key: string) => boolean,
): ListsBack | undefined {
  const fits = Object.keys(members).filter((k) => Array.isArray(members[k]) && listedElsewhere(k))
    .map((k) => ({ k, text: JSON.stringify({ ...members, [k]: [members[k]] }) }))
    .filter(({ text }) => byteLength(text) === sentBytes);
  return fits.length === 1 ? { text: fits[0].text, restored: [fits[0].k] } : undefined;
}
