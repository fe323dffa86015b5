/**
 * The run of path parameters an item is addressed by (`{type}/{value}` of
 * `/tags/{type}/{value}/x`): what its create's answer or `Location` holds
 * of each, from the collection before the run. Moved out of producers.ts,
 * which reads it, to keep that file short.
 *
 * @module
 */

/**
 * The run of path parameters holding `param`: the collection before it, and
 * how many of the run follow the parameter.
 *
 * @example
 * ```ts
 * import { itemSegments } from "./param_run.ts";
 * const item = itemSegments("/tags/{type}/{value}/x", "type");
 * if (item.collection !== "/tags" || item.fromEnd !== 1) throw new Error();
 * if (itemSegments("/pets/{id}", "id").fromEnd !== 0) throw new Error();
 * ```
 */
export function itemSegments(
  template: string,
  param: string,
): { collection: string; fromEnd: number } {
  const segments = template.split("/");
  const at = segments.indexOf(`{${param}}`);
  const isParam = (s: string | undefined) => s !== undefined && /^\{[^}]+\}$/.test(s);
  let start = at;
  while (isParam(segments[start - 1])) start--;
  let end = at;
  while (isParam(segments[end + 1])) end++;
  return { collection: segments.slice(0, start).join("/"), fromEnd: end - at };
}
