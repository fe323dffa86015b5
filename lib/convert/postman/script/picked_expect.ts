/**
 * Checks on what `list.find(fn)` picked (`const u = json.find(x => x.id === id);
 * pm.expect(u).to.not.be.undefined; pm.expect(u.title).to.eql(…)`; pick.ts makes the pick a
 * filter path, `$.json[?@.id == ${vars.id}]`). `undefined` and `exist` on the pick itself say
 * whether the filter matches anything, as `find` returns `undefined` exactly when nothing
 * matches. A check on a member of it is a group over the match (`{at: filter, checks}`, whose `$`
 * is the element), after a check that there is a match: chai fails on a member of `undefined`,
 * and a group over nothing checks nothing. Where the key repeats in the list, every match is
 * checked, not the first alone: a `find` by a key the list holds once (an id, an email) is the
 * same.
 *
 * @module
 */
import type { Cond, Sym } from "./sym.ts";

/**
 * The operator of a group over a find's match (checks_yaml.ts writes it as `at`): the check's
 * `path` is the filter, its `value` the checks on the element.
 *
 * @example
 * ```ts
 * import { PICKED } from "./picked_expect.ts";
 * if (PICKED !== "picked") throw new Error();
 * ```
 */
export const PICKED = "picked";

/** Where the path's last filter `[?…]` ends (just past its `]`), quoted text skipped; none: -1. */
function filterEnd(path: string): number {
  let [depth, quote, inFilter, end] = [0, "", false, -1];
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "[") {
      if (depth === 0) inFilter = path[i + 1] === "?";
      depth++;
    } else if (ch === "]" && --depth === 0 && inFilter) end = i + 1;
  }
  return end;
}

/** The checks of a chain on one subject, each settled (pseudo.ts); `undefined` where one is not. */
type Chain = (subject: Sym) => (Cond[] | undefined)[] | undefined;

/**
 * The checks a chain makes on a find's pick (`one` says the chain's checks on a subject);
 * `null` when `subject` is no pick of one element, `[undefined]` when they cannot be said.
 *
 * @example
 * ```ts
 * import { pickedChecks, PICKED } from "./picked_expect.ts";
 * import type { Sym } from "./sym.ts";
 * const path = (s: Sym) => (s.k === "path" ? s.path : "");
 * const equal = (s: Sym) => [[{ path: path(s), op: "equals", value: "a" }]];
 * const c = pickedChecks({ k: "pick", path: "$.json[?@.id == 3].title" }, equal)?.flat();
 * if (c?.[0]?.op !== "exists" || c[1]?.op !== PICKED || c[1].path !== "$.json[?@.id == 3]") {
 *   throw new Error(JSON.stringify(c));
 * }
 * if ((c[1].value as { path: string }[])[0].path !== "$.title") throw new Error();
 * if (pickedChecks({ k: "pick", path: "$.json[?@.id == 3]" }, equal)?.[0] !== undefined) throw new Error();
 * const gone = (s: Sym) => [[{ path: path(s), op: "exists", value: false }]];
 * if (pickedChecks({ k: "pick", path: "$.json[?@.id == 3]" }, gone)?.[0]?.[0].value !== false) {
 *   throw new Error();
 * }
 * if (pickedChecks({ k: "path", path: "$.json.id" }, equal) !== null) throw new Error();
 * ```
 */
export function pickedChecks(subject: Sym, one: Chain): (Cond[] | undefined)[] | null {
  if (subject.k !== "pick" || subject.list) return null;
  const end = filterEnd(subject.path);
  if (end < 0) return [undefined];
  const [at, rest] = [subject.path.slice(0, end), subject.path.slice(end)];
  if (rest === "") {
    // The pick itself: only whether there is one (a list of matches is no element to compare).
    const conds = allSettled(one({ k: "path", path: at }));
    return [conds?.every((c) => c.op === "exists") ? conds : undefined];
  }
  const inner = allSettled(one({ k: "path", path: `$${rest}` }));
  if (!inner) return [undefined];
  return [[{ path: at, op: "exists", value: true }, { path: at, op: PICKED, value: inner }]];
}

/**
 * The checks of a chain, each settled (pseudo.ts): all of them, or `undefined` when one is not.
 *
 * @example
 * ```ts
 * import { allSettled } from "./picked_expect.ts";
 * const c = { path: "$.a", op: "exists", value: true };
 * if (allSettled([[c], [c]])?.length !== 2 || allSettled([[c], undefined]) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function allSettled(out: (Cond[] | undefined)[] | undefined): Cond[] | undefined {
  return out?.every((c) => c !== undefined) ? (out as Cond[][]).flat() : undefined;
}
