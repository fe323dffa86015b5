/**
 * Which alias a node is being read through: sections read nodes in order, so
 * a node inside an anchor's value is read through the latest use of that
 * anchor (`*defaults` in the third step, not the first).
 *
 * @module
 */
import type { Node } from "yaml";

/** One read of an anchor's value through an alias. */
export interface AliasUse {
  alias: Node;
  target: Node;
}

/**
 * The latest of `uses` whose anchor's value holds `node`, else undefined.
 *
 * @example
 * ```ts
 * import { latestAliasUse } from "./alias_use.ts";
 * // deno-lint-ignore no-explicit-any
 * const use = (from: number, to: number) => ({ alias: {} as any, target: { range: [from, to, to] } as any });
 * const uses = [use(0, 10), use(0, 10)];
 * // deno-lint-ignore no-explicit-any
 * if (latestAliasUse(uses, { range: [4, 5, 5] } as any) !== uses[1]) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (latestAliasUse(uses, { range: [20, 21, 21] } as any) !== undefined) throw new Error();
 * ```
 */
export function latestAliasUse(
  uses: readonly AliasUse[],
  node: Node | null | undefined,
): AliasUse | undefined {
  const start = node?.range?.[0];
  if (start === undefined) return undefined;
  for (let i = uses.length - 1; i >= 0; i--) {
    const [from, to] = uses[i].target.range ?? [0, -1];
    if (start >= from && start < to) return uses[i];
  }
  return undefined;
}
