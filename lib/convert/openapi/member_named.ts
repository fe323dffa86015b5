/**
 * A parameter whose name says both a collection and the member of its items
 * that holds the value: `{pluginName}` is the `name` of a plugin,
 * `{theme_key}` the `key` of a theme. Homebridge UI's document lists its
 * plugins at `GET /api/plugins` and reads one at
 * `/api/plugins/changelog/{pluginName}`; the parameter's name is the only
 * evidence of where the value is, and it names both halves.
 *
 * @module
 */
import { singular } from "../names.ts";
import { plainName } from "./required_props.ts";

/** A name's last word after a word boundary: `Name` of `pluginName`, `name` of `plugin_name`. */
const LAST_WORD = /^([A-Za-z][A-Za-z0-9_-]*?[a-z0-9])(?:[_-]([a-z][a-z0-9]*)|([A-Z][a-z0-9]+))$/;

/**
 * The collection's noun (plain, singular) and the member a parameter names,
 * or undefined for a name of one word or one ending in an id (`roleId`,
 * whose item is found by `id`, as undescribed_listing.ts reads it).
 *
 * @example
 * ```ts
 * import { memberNamed } from "./member_named.ts";
 * const m = memberNamed("pluginName");
 * if (m?.noun !== "plugin" || m.member !== "name") throw new Error(JSON.stringify(m));
 * if (memberNamed("access_group-key")?.noun !== "accessgroup") throw new Error();
 * if (memberNamed("roleId") || memberNamed("username") || memberNamed("category")) throw new Error();
 * ```
 */
export function memberNamed(param: string): { noun: string; member: string } | undefined {
  const m = LAST_WORD.exec(param);
  if (!m) return undefined;
  const member = (m[2] ?? m[3]).toLowerCase();
  if (member === "id") return undefined;
  return { noun: plainName(singular(m[1])), member };
}

/**
 * Whether `param` names the member of the items of the collection whose last
 * path segment is `segment` (`{pluginName}` of `/api/plugins`).
 *
 * @example
 * ```ts
 * import { namesMemberOf } from "./member_named.ts";
 * if (!namesMemberOf("pluginName", "plugins") || namesMemberOf("pluginName", "themes")) throw new Error();
 * ```
 */
export function namesMemberOf(param: string, segment: string): boolean {
  const named = memberNamed(param);
  return named !== undefined && named.noun !== "" &&
    named.noun === plainName(singular(segment));
}
