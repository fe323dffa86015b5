/**
 * Regular expressions with a time limit: `matches` must never hang a run, yet
 * keep JavaScript's syntax and meaning (backreferences and lookaround
 * included).
 *
 * A backtracking pattern like `^(a+)+$` takes exponential time on a value like
 * `"aaaa…a!"`, and V8 cannot interrupt a running match on the thread that runs
 * it. So a match runs on a helper thread (a `node:worker_threads` worker,
 * kept for reuse) and the caller waits for it with `Atomics.wait`, at most
 * {@linkcode MATCH_TIME_LIMIT_MS}; a match that takes longer is abandoned and
 * its worker terminated, which does stop V8 mid-match. The exception is a
 * pattern whose worst case on the given input is provably small (no
 * backreference, lookaround or quantified group, and few enough ways to
 * backtrack for the input's length; see `isTame`): most patterns in flows
 * are, and they run on the calling thread, without the round trip.
 *
 * Rejected alternatives, measured on Deno 2.9.6 (V8 15.0): V8's linear-time
 * engine (`--enable-experimental-regexp-engine-on-excessive-backtracks`, or
 * the `l` flag) works only as a command-line V8 flag, since
 * `node:v8.setFlagsFromString` has no effect once V8 has started, so it would
 * not protect a program importing `mod.ts`; it also refuses backreferences and
 * lookahead, which stay exponential (`^(a+)+\1$` still hangs with it).
 * RE2-style engines (re2js) are linear but change the syntax and meaning
 * (no backreferences or lookaround, a different `\s`, `.` and `$`). A Deno Web
 * Worker cannot be stopped mid-match: `terminate()` returns but the thread
 * keeps running and the process never exits.
 *
 * `node:worker_threads` is imported only when a run uses a regular
 * expression: {@linkcode prepareRegex} loads it before a run whose flows have
 * a `matches` check or a `regex` capture (`runFlows` and `runFlow` call it).
 * A caller that goes straight to {@linkcode testPattern} still works: the
 * module is then loaded synchronously, at a higher cost (about 30 ms in a fresh
 * process instead of 10 to 20).
 *
 * @module
 */
import { BoundedCache } from "./bounded_cache.ts";
import { formatMs, GuardError } from "./guard_error.ts";
import { loadWorkerThreads, NOT_LOADED, workerThreadsLoaded } from "./helper_thread.ts";
import { type GuardedTask, MATCH_TIME_LIMIT_MS, runGuarded } from "./time_guard.ts";
import { isTame } from "./regex_shape.ts";

export { MATCH_TIME_LIMIT_MS } from "./time_guard.ts";

/**
 * A match that did not finish within its time limit (`regex-timeout`), or
 * could not run (`regex-failed`): the time guard's one error class,
 * {@linkcode GuardError}, by the name matches have always thrown.
 *
 * @example
 * ```ts
 * import { MatchTimeoutError, testPattern } from "./regex.ts";
 * try {
 *   testPattern("^(a+)+$", "a".repeat(40) + "!", 200);
 *   throw new Error("expected a timeout");
 * } catch (error) {
 *   if (!(error instanceof MatchTimeoutError) || error.code !== "regex-timeout") throw error;
 *   if (error.name !== "MatchTimeoutError") throw error;
 * }
 * ```
 */
export const MatchTimeoutError = GuardError;
/** The type of {@linkcode MatchTimeoutError}: a {@linkcode GuardError}. */
export type MatchTimeoutError = GuardError;

const compiled = new BoundedCache<RegExp>(1000);

/**
 * Compiles a pattern (JavaScript syntax, no flags), throwing `SyntaxError`
 * when it is invalid. Compiling takes time linear in the pattern's length.
 *
 * @example
 * ```ts
 * import { compilePattern } from "./regex.ts";
 * if (compilePattern("^\\d+$").source !== "^\\d+$") throw new Error();
 * try {
 *   compilePattern("(");
 *   throw new Error("expected a SyntaxError");
 * } catch (error) {
 *   if (!(error instanceof SyntaxError)) throw error;
 * }
 * ```
 */
export function compilePattern(source: string): RegExp {
  return compiled.get(source, () => new RegExp(source));
}

/**
 * The parts of a loaded flow (`Flow` of lib/model/flow.ts) that can run a regular
 * expression: `matches` in a check, a check group's condition or a step's
 * `if`, and `regex` captures, also in included flows. Spelled out here
 * because this module sits below the flow model and imports none of it; a
 * `Flow` is one.
 */
export interface RegexFlow {
  /** The flow's steps. */
  steps: readonly {
    captures: readonly { from: { kind: string } }[];
    when?: readonly RegexOperated[];
    assert: RegexChecks;
    loop?: { until: RegexChecks };
    include?: { flow: RegexFlow };
  }[];
}

/** Something evaluated with an operator: a check or a condition. */
export interface RegexOperated {
  /** The operator's name; `matches` runs a regular expression. */
  operator: string;
}

/** An `assert` or `loop.until` block, as far as operators go. */
export interface RegexChecks {
  /** Path checks, with the conditions of the check groups they are in. */
  paths: readonly (RegexOperated & {
    groups?: readonly { group: { when: readonly RegexOperated[] } }[];
  })[];
  /** XPath checks. */
  xpaths?: readonly RegexOperated[];
}

/** Whether a flow, or a flow it includes, runs a regular expression. */
function usesRegex(flows: readonly RegexFlow[]): boolean {
  const seen = new Set<RegexFlow>();
  const matches = (o: RegexOperated) => o.operator === "matches";
  const inChecks = (c: RegexChecks) =>
    c.paths.some((p) => matches(p) || (p.groups ?? []).some((g) => g.group.when.some(matches))) ||
    (c.xpaths ?? []).some(matches);
  const visit = (flow: RegexFlow): boolean => {
    if (seen.has(flow)) return false;
    seen.add(flow);
    return flow.steps.some((step) =>
      step.captures.some((c) => c.from.kind === "regex") ||
      (step.when ?? []).some(matches) ||
      inChecks(step.assert) ||
      (step.loop !== undefined && inChecks(step.loop.until)) ||
      (step.include !== undefined && visit(step.include.flow))
    );
  };
  return flows.some(visit);
}

/**
 * Loads the helper thread's module (`node:worker_threads`) when one of the
 * flows runs a regular expression (a `matches` check or condition, a `regex`
 * capture); call it before running them, as `runFlows` does, so that
 * {@linkcode testPattern} and {@linkcode execPattern}, which are synchronous,
 * find it loaded. Flows without one load nothing.
 *
 * @example
 * ```ts
 * import { prepareRegex } from "./regex.ts";
 * await prepareRegex([]);
 * ```
 */
export async function prepareRegex(flows: readonly RegexFlow[]): Promise<void> {
  if (workerThreadsLoaded()) return;
  if (!usesRegex(flows)) return;
  await loadWorkerThreads();
}

/** Regular expressions on the helper thread: a test, or the first match's groups. */
const REGEX_TASK: GuardedTask = {
  name: "regex",
  imports: {},
  source: `
const patterns = new Map();
return ({ source, input, exec }) => {
  let re = patterns.get(source);
  if (!re) {
    if (patterns.size >= 1000) patterns.clear();
    re = new RegExp(source);
    patterns.set(source, re);
  }
  if (!exec) return re.test(input);
  const m = re.exec(input);
  return m && Array.from(m, (g) => g === undefined ? null : g);
};`,
};

/** A match on the helper thread, its errors as MatchTimeoutError. */
function ask(source: string, input: string, exec: boolean, limitMs: number): unknown {
  try {
    return runGuarded(REGEX_TASK, { source, input, exec }, limitMs);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-timeout") {
      throw new GuardError(
        "regex-timeout",
        `the match did not finish within ${formatMs(limitMs)}`,
      );
    }
    throw new GuardError(
      "regex-failed",
      error.message === NOT_LOADED
        ? "the regular-expression helper is not loaded: call prepareRegex(flows) before matching"
        : /stack|memory/.test(error.message)
        ? "the match ran out of memory or stack"
        : `the match could not run: ${error.message}`,
    );
  }
}

/**
 * Tests a pattern (JavaScript syntax, no flags, unanchored) against a string,
 * waiting at most `limitMs` for the answer. Throws `SyntaxError` for an
 * invalid pattern and {@linkcode MatchTimeoutError} when the match does not
 * finish in time (`regex-timeout`) or cannot run (`regex-failed`). Blocks the
 * calling thread while it waits, never longer than `limitMs` once the helper
 * thread runs. The helper's module is best loaded first with
 * {@linkcode prepareRegex} (`runFlows` does); otherwise the first match loads
 * it synchronously, or fails with `regex-failed` where that is impossible.
 *
 * @example
 * ```ts
 * import { testPattern } from "./regex.ts";
 * if (!testPattern("^[a-z]+-\\d+$", "abc-123")) throw new Error();
 * if (testPattern("^\\d+$", "abc")) throw new Error();
 * if (!testPattern("^(\\w)\\w*\\1$", "abca")) throw new Error("backreferences work");
 * ```
 */
export function testPattern(
  source: string,
  input: string,
  limitMs: number = MATCH_TIME_LIMIT_MS,
): boolean {
  const here = matchHere(source, input);
  if (here !== undefined) return here !== null;
  return ask(source, input, false, limitMs) === true;
}

/**
 * The first match of a pattern in a string, with its groups (`null` for a
 * group that took no part), or `null` when there is none; under the same time
 * limit and with the same errors as {@linkcode testPattern}.
 *
 * @example
 * ```ts
 * import { execPattern } from "./regex.ts";
 * const m = execPattern('content="([^"]+)"', '<meta name="csrf" content="c-123">');
 * if (m?.[1] !== "c-123") throw new Error(String(m));
 * if (execPattern("x(y)?", "x")?.[1] !== null) throw new Error();
 * if (execPattern("\\d", "abc") !== null) throw new Error();
 * ```
 */
export function execPattern(
  source: string,
  input: string,
  limitMs: number = MATCH_TIME_LIMIT_MS,
): (string | null)[] | null {
  const here = matchHere(source, input);
  if (here !== undefined) return here && Array.from(here, (g) => g === undefined ? null : g);
  const groups = ask(source, input, true, limitMs);
  if (groups !== null && !Array.isArray(groups)) {
    throw new GuardError("regex-failed", "the match's groups did not arrive");
  }
  return groups as (string | null)[] | null;
}

/**
 * The match run on the calling thread when the pattern's worst case on this
 * input is small (see isTame), or undefined when it must go to the helper.
 * Throws `SyntaxError` for an invalid pattern either way.
 */
function matchHere(source: string, input: string): RegExpExecArray | null | undefined {
  const re = compilePattern(source);
  return isTame(source, input.length) ? re.exec(input) : undefined;
}
