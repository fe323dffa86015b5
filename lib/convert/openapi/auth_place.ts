/**
 * Where a flow's `auth:` blocks go. When the steps that have a block all
 * have the same one, and they are more than the steps that have none, it
 * is written once at flow level (`auth:` beside `vars`, its comments above
 * it), and every other step — `security: []`, or credentials written into
 * its request — says `auth: none`, so the flow's block is not sent where
 * the document asks for none. Otherwise each step has its own block, and a
 * step without one sends what its request holds.
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";
import type { StepAuth } from "./auth.ts";

/** The flow's block and its comments, and each step's `auth:` and comments. */
export interface Placed {
  flow?: YMap;
  flowNotes: string[];
  steps: { auth?: YNode; notes: string[] }[];
}

/**
 * Places the blocks of a flow's steps, in step order.
 *
 * @example
 * ```ts
 * import { placeAuth } from "./auth_place.ts";
 * import { ymap } from "../yaml_out.ts";
 * const key = () => ymap([["api_key", ymap([["name", "k"], ["value", "${ENV.API_KEY}"]])]]);
 * const step = (block?: ReturnType<typeof key>) =>
 *   ({ none: !block, block, notes: [], credentials: { headers: [], query: [], cookies: [], comments: [] }, places: new Map() });
 * const placed = placeAuth([step(key()), step(key()), step()]);
 * if (!placed.flow || placed.steps[0].auth !== undefined || placed.steps[2].auth !== "none") throw new Error();
 * if (placeAuth([step(key()), step(), step()]).steps[0].auth === undefined) throw new Error();
 * ```
 */
export function placeAuth(steps: StepAuth[]): Placed {
  const withBlock = steps.filter((s) => s.block !== undefined);
  const kinds = new Set(withBlock.map((s) => JSON.stringify(s.block)));
  if (kinds.size === 1 && withBlock.length > steps.length - withBlock.length) {
    return {
      flow: withBlock[0].block,
      flowNotes: [...new Set(withBlock.flatMap((s) => s.notes))],
      steps: steps.map((s) => s.block ? { notes: [] } : { auth: "none", notes: [] }),
    };
  }
  return { flowNotes: [], steps: steps.map((s) => ({ auth: s.block, notes: s.notes })) };
}
