/**
 * How a step captures a parameter's value from its producer's answer: a
 * JSONPath into the body, a segment of the `Location` header, or a claim of
 * the JWT the answer holds (`jwt_subject.ts`).
 *
 * A member the document shows at the top of its producer's answer (`id` of
 * `Column {id, title}`, a create's or a read's) is read there when the
 * answer has it, else from the item the answer wraps (`{column: {id,
 * title}}`: a NestJS handler typed `ColumnResponseInterface`, documented
 * as the bare entity): the first match of `$.json..['id']`, which visits
 * the answer's own members before any below them, so an answer shaped as
 * documented gives what `$.json.id` gives. Only the answer decides, at run
 * time; no name is guessed. An answer without its own member but with one
 * deeper that is not its item's (`{title, owner: {id}}`) gives that one
 * where `$.json.id` failed the step; the next step's answer then says so.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import type { ParamLink } from "./document_links.ts";
import { subjectClaims } from "./jwt_subject.ts";

/**
 * The capture of a link's value: its JSONPath, or the segment of the
 * `Location` header at the parameter's place (the last, or `fromEnd` before it).
 *
 * @example
 * ```ts
 * import { captureSource } from "./capture_source.ts";
 * const id = captureSource({ path: ["id"], from: "parent" }) as { entries: [string, unknown][] };
 * if (id.entries.map(([, v]) => v).join() !== "$.json..['id'],true") throw new Error();
 * if (captureSource({ path: ["owner", "id"], from: "links" }) !== "$.json.owner.id") throw new Error();
 * const header = captureSource({ path: [], from: "location" }) as { entries: [string, string][] };
 * if (header.entries[0].join() !== "header,location") throw new Error();
 * const listed = captureSource({ path: ["0", "id"], from: "listing" }) as { entries: [string, unknown][] };
 * if (listed.entries.map(([, v]) => v).join() !== "$.json[0].id,true") throw new Error();
 * const type = captureSource({ path: [], from: "location", fromEnd: 1 }) as { entries: [string, string][] };
 * if (new RegExp(type.entries[1][1]).exec("tags/simple/blue")?.[1] !== "simple") throw new Error();
 * ```
 */
export function captureSource(
  link:
    & Pick<ParamLink, "path" | "from" | "fromEnd" | "search" | "match" | "after" | "pattern">
    & { param?: string },
  sent?: string,
): YNode {
  // An answer the document does not describe may not hold it: the create passes all the same.
  if (link.search) {
    return ymap([["path", searchPath(link.search)], ["first", true], ["optional", true]]);
  }
  // A listing may not show the run's own item (a page of others): the listing passes all the same.
  if (link.match && sent !== undefined) {
    return ymap([["path", matchPath(link.path, link.match, sent)], ["first", true], [
      "optional",
      true,
    ]]);
  }
  if (link.from === "parent" || link.from === "property") return memberSource(link.path);
  // The account the token was issued to (jwt_subject.ts).
  if (link.from === "claim") {
    return ymap([["path", capturePath(link.path)], ["claim", subjectClaims(link.param ?? "id")]]);
  }
  // A listing nothing in the suite adds to may be empty on a fresh instance (orders a shop's front
  // places): the listing passes, and what reads its first item is skipped, saying so. One read
  // after the suite's own create (`after`) must show it, and stays strict.
  if (link.from === "listing" && !link.after && link.path.length > 0) {
    return ymap([["path", capturePath(link.path)], ["optional", true]]);
  }
  // A link the answer hands over (`href_link.ts`): the parameter's place in it.
  if (link.from === "href") {
    return ymap([["path", capturePath(link.path)], ["regex", link.pattern!]]);
  }
  if (link.from !== "location") return capturePath(link.path);
  const after = "/[^/?#]+".repeat(link.fromEnd ?? 0);
  return ymap([["header", "location"], ["regex", `([^/?#]+)${after}/?(?:[?#].*)?$`]]);
}

/**
 * The capture of a member the document shows in an answer: a top-level one
 * (`["id"]`) there, else in the item the answer wraps (see the module doc);
 * a deeper one where the document says.
 *
 * @example
 * ```ts
 * import { memberSource } from "./capture_source.ts";
 * const top = memberSource(["email"]) as { entries: [string, unknown][] };
 * if (top.entries[0][1] !== "$.json..['email']" || top.entries[1][1] !== true) throw new Error();
 * if (memberSource(["user", "email"]) !== "$.json.user.email") throw new Error();
 * ```
 */
export function memberSource(path: string[]): YNode {
  // Its own member comes first in `..`'s order: an answer as documented gives `$.json.<name>`.
  if (path.length === 1) return ymap([["path", searchPath(path)], ["first", true]]);
  return capturePath(path);
}

/**
 * A capture path for a property path: `$.json.article.slug`, a name no
 * dotted path can hold in brackets.
 *
 * @example
 * ```ts
 * import { capturePath } from "./capture_source.ts";
 * if (capturePath(["article", "slug"]) !== "$.json.article.slug") throw new Error();
 * if (capturePath(["a-b"]) !== "$.json['a-b']" || capturePath(["items", "-1"]) !== "$.json.items[-1]") {
 *   throw new Error();
 * }
 * ```
 */
export function capturePath(path: string[]): string {
  const segment = (s: string) =>
    /^-?\d+$/.test(s)
      ? `[${s}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(s)
      ? `.${s}`
      : `['${s.replace(/'/g, "\\'")}']`;
  return `$.json${path.map(segment).join("")}`;
}

/**
 * The path of the first member named one of `names` anywhere in an answer:
 * the shallowest in document order, the first name first at one depth.
 *
 * @example
 * ```ts
 * import { searchPath } from "./capture_source.ts";
 * if (searchPath(["tagId", "id"]) !== "$.json..['tagId','id']") throw new Error();
 * ```
 */
export function searchPath(names: string[]): string {
  return `$.json..[${names.map((n) => `'${n.replace(/'/g, "\\'")}'`).join(",")}]`;
}

/**
 * The path of a listed item's value whose `member` is what the run `sent`
 * (an expression, resolved when the step runs), in place of the list's first:
 * `$.json.roles[?@.name == '${vars.name}'].id` for `roles.0.id`.
 *
 * @example
 * ```ts
 * import { matchPath } from "./capture_source.ts";
 * const path = matchPath(["roles", "0", "id"], "name", "${vars.name}");
 * if (path !== "$.json.roles[?@.name == '${vars.name}'].id") throw new Error(path);
 * ```
 */
export function matchPath(path: string[], member: string, sent: string): string {
  const at = path.indexOf("0");
  const name = capturePath([member]).slice("$.json".length);
  const filter = `[?@${name} == '${sent}']`;
  return `${capturePath(path.slice(0, at))}${filter}${capturePath(path.slice(at + 1)).slice(6)}`;
}
