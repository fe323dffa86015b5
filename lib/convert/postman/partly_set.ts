/**
 * A variable one script sets both in a way translated and in a way not
 * (the body's `token` when it has one; else, under `if (!…get('token'))`, a
 * cookie cut with a regular expression): the flow reads the translated value,
 * which may not be Newman's, so the summary names the variable and the later
 * requests that read it, as it does for a set not translated at all.
 *
 * @module
 */
import type { Broken, Shared } from "./flow_state.ts";
import type { Translation } from "./script/translation.ts";

/**
 * Opens a doubt for each variable `t` both sets (or captures) and drops;
 * `where` is the request whose script it is. Call it after the sets are bound.
 *
 * @example
 * ```ts
 * import { openPartlySets } from "./partly_set.ts";
 * const shared = { broken: [], brokenOpen: new Map() } as unknown as Parameters<typeof openPartlySets>[0];
 * const t = { captures: [], sets: [{ name: "token", value: "x", kind: "text" }], dropped: ["token"] };
 * openPartlySets(shared, t as never, "Login");
 * if (shared.broken[0]?.partly !== true) throw new Error();
 * ```
 */
export function openPartlySets(shared: Shared, t: Translation, where: string): void {
  const set = new Set([
    ...t.captures.map((c) => c.name),
    ...t.sets.filter((s) => s.kind !== "unset").map((s) => s.name),
  ]);
  for (const name of t.dropped) {
    if (!set.has(name)) continue;
    const doubt: Broken = { name, by: where, readers: [], partly: true };
    shared.broken.push(doubt);
    (shared.partlyOpen ??= new Map()).set(name, doubt);
  }
}

/**
 * Notes that the request `where` reads `name`: for a doubt on it, and for a
 * broken chain when nothing here gives it (`bound`: something does).
 *
 * @example
 * ```ts
 * import { noteRead } from "./partly_set.ts";
 * const doubt = { name: "token", by: "Login", readers: [] as string[], partly: true };
 * const shared = { brokenOpen: new Map(), partlyOpen: new Map([["token", doubt]]) };
 * noteRead(shared as never, "token", "Borrow", true);
 * noteRead(shared as never, "token", "Borrow", true);
 * if (doubt.readers.join() !== "Borrow") throw new Error();
 * ```
 */
export function noteRead(shared: Shared, name: string, where: string, bound: boolean): void {
  const open = [shared.partlyOpen?.get(name), bound ? undefined : shared.brokenOpen.get(name)];
  for (const chain of open) {
    if (chain && chain.readers.at(-1) !== where) chain.readers.push(where);
  }
}

/**
 * Closes what was open on `name` (a broken chain, a doubt): a later set or capture gives it again.
 *
 * @example
 * ```ts
 * import { closeChain } from "./partly_set.ts";
 * const shared = { brokenOpen: new Map([["a", {}]]), partlyOpen: new Map([["a", {}]]) };
 * closeChain(shared as never, "a");
 * if (shared.brokenOpen.size + shared.partlyOpen.size !== 0) throw new Error();
 * ```
 */
export function closeChain(shared: Shared, name: string): void {
  shared.brokenOpen.delete(name);
  shared.partlyOpen?.delete(name);
}
