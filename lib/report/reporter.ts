/**
 * Reporters: optional hooks over run events, as in Playwright. The runner
 * calls one reporter; {@linkcode combineReporters} fans each event out to
 * several (console, JUnit, JSON, log), in order, awaiting each. As in
 * Playwright's multiplexer, one reporter that fails stops no other: every
 * reporter hears the event, then the failures reach the caller.
 *
 * @module
 */
import { type Reporter, REPORTER_HOOKS, type ReporterHook } from "../model/events.ts";

// The event types live in the model so that run/ need not import report/;
// they are re-exported here for the reporters and older importers.
export type {
  AttemptInfo,
  Exchange,
  FlowRef,
  Reporter,
  RequestInfo,
  RunStart,
} from "../model/events.ts";
export { REPORTER_HOOKS } from "../model/events.ts";

/**
 * Combines reporters into one that calls each in the order given, each
 * after the promise of the one before (if it returned one) has settled. A
 * hook that none of them has is absent from the result.
 *
 * A reporter that throws (or rejects) does not stop the others: each still
 * hears the event, and then the hook fails with what went wrong. One failure
 * is thrown as it was, so the message a user sees is the reporter's own;
 * several are thrown together as a {@linkcode ReporterErrors}.
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
    const having: Having = [];
    reporters.forEach((reporter, index) => {
      if (typeof reporter[hook] === "function") having.push({ reporter, position: index + 1 });
    });
    if (having.length === 0) continue;
    const fanout: Fanout = { having, total: reporters.length, hook };
    combined[hook] = (...args: unknown[]) => callEach(fanout, args, 0, undefined);
  }
  return combined as Reporter;
}

/**
 * The failures of several reporters in one hook, each in `errors`; the
 * message names each reporter by its position among those combined, with
 * its error's stack, so one report of an internal error shows them all.
 *
 * @example
 * ```ts
 * import { ReporterErrors } from "./reporter.ts";
 * const error = new ReporterErrors("onRunEnd", 2, [
 *   { position: 1, error: new Error("a") },
 *   { position: 2, error: "b" },
 * ]);
 * if (error.errors.length !== 2 || !error.message.startsWith("2 reporters failed in onRunEnd:")) {
 *   throw new Error(error.message);
 * }
 * ```
 */
export class ReporterErrors extends AggregateError {
  /** The failures of `hook`, of `total` reporters combined. */
  constructor(hook: ReporterHook, total: number, failures: Failure[]) {
    const lines = failures.map(({ position, error }) =>
      `  reporter ${position} of ${total}: ${
        String((error as Error)?.stack ?? error).replaceAll("\n", "\n    ")
      }`
    );
    super(
      failures.map((f) => f.error),
      `${failures.length} reporters failed in ${hook}:\n${lines.join("\n")}`,
    );
    this.name = "ReporterErrors";
  }
}

/** The reporters that have one hook, with their 1-based positions among those combined. */
type Having = { reporter: Reporter; position: number }[];

/** A reporter's failure in one hook. */
interface Failure {
  /** The reporter's 1-based position among those combined. */
  position: number;
  /** What it threw or rejected with. */
  error: unknown;
}

/** How one hook fans out: made once when combining, so a call allocates nothing more. */
interface Fanout {
  having: Having;
  /** How many reporters were combined, for the positions in a failure. */
  total: number;
  hook: ReporterHook;
}

/**
 * Calls the hook on each reporter from `from` on, in order; a reporter that
 * returns a promise is waited for before the next is called, the others cost
 * no turn of the event loop (most hooks of most reporters are synchronous).
 * Failures are gathered, never allocated on the way that has none, and
 * thrown once every reporter has been called.
 */
function callEach(
  call: Fanout,
  args: unknown[],
  from: number,
  failed: Failure[] | undefined,
): void | Promise<void> {
  const { having } = call;
  for (let i = from; i < having.length; i++) {
    const { reporter, position } = having[i];
    let done: void | Promise<void>;
    try {
      done = (reporter[call.hook] as (...a: unknown[]) => void | Promise<void>).apply(
        reporter,
        args,
      );
    } catch (error) {
      (failed ??= []).push({ position, error });
      continue;
    }
    if (done instanceof Promise) {
      return done.then(
        () => callEach(call, args, i + 1, failed),
        (error) => callEach(call, args, i + 1, [...failed ?? [], { position, error }]),
      );
    }
  }
  if (failed) {
    throw failed.length === 1 ? failed[0].error : new ReporterErrors(call.hook, call.total, failed);
  }
}
