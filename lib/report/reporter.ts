/**
 * Reporters: optional hooks over run events, as in Playwright. The runner
 * calls one reporter; {@linkcode combineReporters} fans each event out to
 * several (console, JUnit, JSON, log), in order, awaiting each.
 *
 * @module
 */
import { type Reporter, REPORTER_HOOKS } from "../model/events.ts";

// The event types live in the model so that run/ need not import report/;
// they are re-exported here for the reporters and older importers.
export type { AttemptInfo, FlowRef, Reporter, RequestInfo, RunStart } from "../model/events.ts";
export { REPORTER_HOOKS } from "../model/events.ts";

/**
 * Combines reporters into one that calls each in the order given, each
 * after the promise of the one before (if it returned one) has settled. A
 * hook that none of them has is absent from the result.
 *
 * @example
 * ```ts
 * import { combineReporters } from "./reporter.ts";
 * const seen: string[] = [];
 * const both = combineReporters(
 *   { onFlowStart: (f) => void seen.push(`a:${f.name}`) },
 *   { onFlowStart: (f) => void seen.push(`b:${f.name}`) },
 * );
 * await both.onFlowStart?.({ file: "x.yaml", name: "x" });
 * if (seen.join() !== "a:x,b:x") throw new Error(seen.join());
 * ```
 */
export function combineReporters(...reporters: Reporter[]): Reporter {
  const combined: Record<string, unknown> = {};
  for (const hook of REPORTER_HOOKS) {
    // A hook no reporter has stays absent, so callers skip it without making a promise.
    const having = reporters.filter((r) => typeof r[hook] === "function");
    if (having.length > 0) combined[hook] = (...args: unknown[]) => callEach(having, hook, args, 0);
  }
  return combined as Reporter;
}

/**
 * Calls `hook` on each reporter from `from` on, in order; a reporter that
 * returns a promise is waited for before the next is called, the others cost
 * no turn of the event loop (most hooks of most reporters are synchronous).
 */
function callEach(
  reporters: Reporter[],
  hook: typeof REPORTER_HOOKS[number],
  args: unknown[],
  from: number,
): void | Promise<void> {
  for (let i = from; i < reporters.length; i++) {
    const done = (reporters[i][hook] as (...a: unknown[]) => void | Promise<void>).apply(
      reporters[i],
      args,
    );
    if (done instanceof Promise) return done.then(() => callEach(reporters, hook, args, i + 1));
  }
}
