/**
 * "Did you mean …?" for a path that found nothing: the key of the value it
 * looked in that the path's last name nearly spells (`$.json.favourited`
 * when the body has `favorited`).
 *
 * @module
 */
import { suggest } from "../_util/suggest.ts";
import type { CompiledPath } from "../model/path.ts";
import type { Selector } from "./path_select.ts";

/**
 * The path with its last name replaced by the nearest key of the object its
 * parent selects, or `undefined` when the path is not a plain member chain
 * ending in a name, its parent is not an object, or no key is close.
 *
 * @example
 * ```ts
 * import { nearKey } from "./near_key.ts";
 * import { compilePath, select } from "../expr/path.ts";
 * const body = { json: { favorited: true } };
 * const near = nearKey(compilePath("$.json.favourited", "response"), (p) => select(p, body));
 * if (near !== "$.json.favorited") throw new Error(near);
 * ```
 */
export function nearKey(path: CompiledPath, selectFrom: Selector): string | undefined {
  const chain = path.chain;
  const last = chain?.at(-1);
  // A name of one to three letters is one edit from too many others to tell a typo.
  if (!chain || typeof last !== "string" || last.length < 4) return undefined;
  if (!path.source.endsWith(`.${last}`)) return undefined;
  const parentSource = path.source.slice(0, -last.length - 1);
  const parent = selectFrom({ ...path, source: parentSource, chain: chain.slice(0, -1) });
  const value = parent.found ? parent.value : undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const keys = Object.keys(value).filter((k) => k !== last);
  const close = suggest(last, keys);
  return close === undefined || !/^[A-Za-z_][\w-]*$/.test(close)
    ? undefined
    : `${parentSource}.${close}`;
}
