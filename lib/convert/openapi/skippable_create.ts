/**
 * A listing read after the suite's own create must show what it made, so
 * its capture of the first item is strict (`capture_source.ts`): an empty
 * listing fails it. Not when the create's own condition may skip it while
 * the listing still runs: a create whose body reads a value the sign-in
 * only searched for (`user_id` from a sign-up whose answer the document
 * does not describe), skipped when that search found nothing. The listing,
 * answered as it should (200, nothing in it), then failed the run
 * (stephenkettley/api-blog, docs/real-servers.md). Decided by the steps'
 * own conditions: one of the create's that the listing's do not hold.
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";

/**
 * Whether `create` has a condition (`if`) that `listing` has not: it may be
 * skipped while the listing runs. False when either step is not this
 * flow's (the setup's sign-in sends it).
 *
 * @example
 * ```ts
 * import { ymap } from "../yaml_out.ts";
 * import { skippableBefore } from "./skippable_create.ts";
 * const exists = (value: string) => ymap([["value", value], ["exists", true]]);
 * const token = exists("${setup.token}");
 * const create = ymap([["name", "create"], ["if", [token, exists("${setup.user_id}")]]]);
 * const listing = ymap([["name", "list"], ["if", token]]);
 * if (!skippableBefore(create, listing) || skippableBefore(listing, create)) throw new Error();
 * if (skippableBefore(undefined, listing)) throw new Error();
 * ```
 */
export function skippableBefore(create: YMap | undefined, listing: YMap | undefined): boolean {
  if (!create || !listing) return false;
  const held = new Set(conditionsOf(listing));
  return conditionsOf(create).some((c) => !held.has(c));
}

/**
 * `link` as the listing's capture reads it: without its create (`after`), so
 * not strict, when that create is {@linkcode skippableBefore} the listing.
 *
 * @example
 * ```ts
 * import { ymap } from "../yaml_out.ts";
 * import { strictListing } from "./skippable_create.ts";
 * const create = ymap([["name", "create"], ["if", ymap([["value", "${setup.user_id}"], ["exists", true]])]]);
 * const link = { after: { name: "create" } };
 * if (strictListing(link, create, ymap([["name", "list"]])).after !== undefined) throw new Error();
 * if (strictListing(link, undefined, ymap([["name", "list"]])) !== link) throw new Error();
 * ```
 */
export function strictListing<L extends { after?: unknown }>(
  link: L,
  create: YMap | undefined,
  listing: YMap | undefined,
): L {
  return skippableBefore(create, listing) ? { ...link, after: undefined } : link;
}

/** A step's conditions, each as text to compare. */
function conditionsOf(step: YMap): string[] {
  const found: YNode | undefined = step.entries.find(([k]) => k === "if")?.[1];
  const all = Array.isArray(found) ? found : found === undefined ? [] : [found];
  return all.map((c) => JSON.stringify(c));
}
