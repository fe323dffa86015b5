/**
 * Where a read finds an item nothing creates when the listing's answer is
 * undescribed: postgres-meta's document writes `GET /indexes/` and `GET
 * /indexes/{id}` as `200: {description: "Default Response"}`, and the id was
 * asked of the user (404). The listing still holds the items: the value is
 * read from its answer at run time as from a create's undescribed answer
 * (`undescribed_answer.ts`), the first member named for the parameter
 * anywhere in it, optional, so an empty list (a fresh instance) passes and
 * the read is skipped. Only a read (GET, HEAD) of an item no create makes:
 * a write would change whichever item is listed first, anyone's
 * (`own_listed.ts`), and an item a create makes is the run's own. Only an
 * id (`{id}`, `{roleId}`): the instance's own number, which no user knows
 * before the run, or a handle whose name says the member that holds it
 * (Homebridge UI's `{pluginName}` of `GET /api/plugins`: `name`,
 * member_named.ts); a handle a person names (`{category}` of BBC iPlayer's
 * `/categories/{category}`) stays theirs to fill in, as nothing says which
 * member of a listed item holds it.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { searchedLink } from "./undescribed_answer.ts";
import { memberNamed, namesMemberOf } from "./member_named.ts";

/** A parameter naming an id: `id`, `roleId`, `role_id`, `ID`; not `paid` nor `android`. */
const ID = /^(?:id|Id|ID|.+(?:Id|ID|[_-]id))$/;

/**
 * The link of a read's parameter to its collection's `listing` searched at
 * run time, or undefined when the listing is described, answers nothing, the
 * operation writes, or a create of the collection exists (`made`).
 *
 * @example
 * ```ts
 * import { undescribedListingLink } from "./undescribed_listing.ts";
 * import { operationsOf } from "./operations.ts";
 * const said = { responses: { "200": { description: "Default Response" } } };
 * const [list, read] = operationsOf({ paths: { "/indexes/": { get: said }, "/indexes/{id}": { get: said } } });
 * if (undescribedListingLink({}, read, list, "id", false)?.search?.join() !== "id") throw new Error();
 * if (undescribedListingLink({}, read, list, "id", true) !== undefined) throw new Error();
 * if (undescribedListingLink({}, read, list, "category", false) !== undefined) throw new Error();
 * ```
 */
export function undescribedListingLink(
  doc: unknown,
  op: OpenApiOperation,
  listing: OpenApiOperation,
  param: string,
  made: boolean,
): ParamLink | undefined {
  if (made || (op.method !== "GET" && op.method !== "HEAD")) return undefined;
  // A handle whose name says the listing's items' member (`{pluginName}` of `/plugins`: `name`),
  // at another path (`/plugins/changelog/{pluginName}`); right under the listing, other words may
  // stand at its place (Signal K's `/resources/{resourceType}` beside `/resources/routes`).
  const collection = listing.template.replace(/\/$/, "");
  const under = op.template.startsWith(`${collection}/{${param}}`);
  const segment = collection.split("/").at(-1) ?? "";
  const member = !under && namesMemberOf(param, segment) ? memberNamed(param)?.member : undefined;
  if (!ID.test(param) && member === undefined) return undefined;
  const searched = searchedLink(doc, listing, param);
  return searched &&
    { ...searched, from: "listing", ...(member ? { search: [param, member] } : {}) };
}
