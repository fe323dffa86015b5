/**
 * A polling step (`loop:`) as an Artillery `loop` with `whileTrue`: the
 * request is sent again, `sleep_ms` apart, until its `until` checks hold
 * or `max_attempts` requests were sent; the processor's `flowrunUntil`
 * hook judges each response and `flowrunPolling` decides whether to go
 * again. The step's own checks and captures apply to the last response
 * only, as in `flowrun run`: its checks go to the processor (which skips
 * the attempts before the last), its captures are not strict (an early
 * response need not have the value yet). Until checks never met fail the
 * user, as they fail the step.
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import { expectationsOf } from "./expect.ts";
import type { FlowItem } from "./flow_item.ts";
import type { Place } from "./scope.ts";

/**
 * The loop item of a polling step, around its request item (and the
 * processor call before it, so random values are new on every attempt).
 *
 * @example
 * ```ts
 * import { pollItem } from "./poll.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const loop = { maxAttempts: 3, sleepMs: 100, until: { status: { operator: "equals" as const, expected: [200], line: 1, column: 1 }, paths: [] } };
 * const item = pollItem({ loop } as never, [{ comments: [], item: { get: { url: "u" } } }], place);
 * if (item.whileTrue !== "flowrunPolling" || (item.loop as unknown[]).length !== 1) throw new Error();
 * ```
 */
export function pollItem(step: Step, items: FlowItem[], place: Place): Record<string, unknown> {
  const loop = step.loop!;
  const until = expectationsOf(loop.until, place, true);
  const request = Object.values(items.at(-1)!.item)[0] as Record<string, unknown>;
  request.flowrunUntil = { checks: until.checks, max: loop.maxAttempts, sleepMs: loop.sleepMs };
  const after = request.afterResponse === undefined ? [] : [request.afterResponse].flat();
  // The until verdict first: the step's checks read whether this was the last attempt.
  request.afterResponse = ["flowrunUntil", ...after];
  for (const capture of (request.capture ?? []) as Record<string, unknown>[]) {
    capture.strict = false;
  }
  return {
    loop: items.map(({ item }) => item),
    whileTrue: "flowrunPolling",
    count: loop.maxAttempts,
  };
}
