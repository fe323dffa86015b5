/**
 * Reading and growing a converted step's tree ({@linkcode YMap}) after it was built: rules that
 * add a header or an option to steps already written (a browser's `Origin`, an XSRF echo) find
 * the map under a key, or make it where the flow format orders it.
 *
 * @module
 */
import type { YMap, YNode } from "./yaml_out.ts";

/**
 * The value under `key` in `map`, or `undefined`.
 *
 * @example
 * ```ts
 * import { valueAt } from "./yaml_tree.ts";
 * if (valueAt({ kind: "map", entries: [["method", "POST"]] }, "method") !== "POST") throw new Error();
 * ```
 */
export function valueAt(map: YMap, key: string): YNode | undefined {
  return map.entries.find(([k]) => k === key)?.[1];
}

/**
 * The map under `key` in `map`, or `undefined` when there is none or it is no map.
 *
 * @example
 * ```ts
 * import { mapAt } from "./yaml_tree.ts";
 * const request = { kind: "map" as const, entries: [] };
 * if (mapAt({ kind: "map", entries: [["request", request]] }, "request") !== request) throw new Error();
 * if (mapAt({ kind: "map", entries: [["url", "/x"]] }, "url") !== undefined) throw new Error();
 * ```
 */
export function mapAt(map: YMap, key: string): YMap | undefined {
  const value = valueAt(map, key);
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
      value.kind === "map"
    ? value
    : undefined;
}

/**
 * A new empty map under `key` in `map`, placed after the last of the keys `after` (first when
 * none is there).
 *
 * @example
 * ```ts
 * import { insertMap } from "./yaml_tree.ts";
 * import type { YMap } from "./yaml_out.ts";
 * const request: YMap = { kind: "map", entries: [["method", "POST"], ["url", "/x"], ["body", "{}"]] };
 * insertMap(request, "headers", ["url", "query"]);
 * if (request.entries.map(([k]) => k).join() !== "method,url,headers,body") throw new Error();
 * ```
 */
export function insertMap(map: YMap, key: string, after: string[]): YMap {
  const node: YMap = { kind: "map", entries: [] };
  const at = map.entries.findLastIndex(([k]) => after.includes(k)) + 1;
  map.entries.splice(at, 0, [key, node]);
  return node;
}
