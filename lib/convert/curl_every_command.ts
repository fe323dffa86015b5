/**
 * Commands pasted into a terminal are each sent, whatever the one before
 * answered: curl does not stop a session at a 404 or a 500. A flow stops at
 * its first failed step, so a docs page whose one command the server refused
 * (Parse Server's guide reading a user without a session: 404 where users
 * are private) sent none of the commands after it, and they were reported
 * skipped. Every step after the first is `always: true`: sent in its place
 * and reported, the flow failing at the refused one.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";

/**
 * Marks every step after the first `always`.
 *
 * @example
 * ```ts
 * import { everyCommandSent } from "./curl_every_command.ts";
 * const c = { steps: [{}, {}, {}] } as any;
 * everyCommandSent(c);
 * if (c.steps[0].always || !c.steps[1].always || !c.steps[2].always) throw new Error();
 * ```
 */
export function everyCommandSent(c: Correlator): void {
  for (const step of c.steps.slice(1)) step.always = true;
}
