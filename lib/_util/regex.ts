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
// Types only: the module itself is imported when a run needs it (see prepareRegex). Importing
// any `node:` builtin starts Deno's Node compatibility layer (about 10 ms in a fresh process),
// which a run without a regular expression should not pay for.
import type { MessagePort, Worker } from "node:worker_threads";
import { BoundedCache } from "./bounded_cache.ts";

/**
 * How long one match may run, in milliseconds: 1000.
 *
 * @example
 * ```ts
 * import { MATCH_TIME_LIMIT_MS } from "./regex.ts";
 * if (MATCH_TIME_LIMIT_MS !== 1000) throw new Error();
 * ```
 */
export const MATCH_TIME_LIMIT_MS = 1000;

/**
 * A match that did not finish within its time limit, or could not run.
 *
 * @example
 * ```ts
 * import { MatchTimeoutError, testPattern } from "./regex.ts";
 * try {
 *   testPattern("^(a+)+$", "a".repeat(40) + "!", 200);
 *   throw new Error("expected a timeout");
 * } catch (error) {
 *   if (!(error instanceof MatchTimeoutError) || error.code !== "regex-timeout") throw error;
 * }
 * ```
 */
export class MatchTimeoutError extends Error {
  /** `regex-timeout` when the match ran out of time, `regex-failed` when it could not run. */
  readonly code: "regex-timeout" | "regex-failed";
  /** Creates the error with its code and message. */
  constructor(code: MatchTimeoutError["code"], message: string) {
    super(message);
    this.name = "MatchTimeoutError";
    this.code = code;
  }
}

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

/** The module of the helper thread. */
type WorkerThreads = typeof import("node:worker_threads");

let threads: WorkerThreads | undefined;

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
  if (threads) return;
  if (!usesRegex(flows)) return;
  threads = await import("node:worker_threads");
}

/**
 * `node:worker_threads`, loaded by {@linkcode prepareRegex}, or now for a
 * caller that did not: Node's synchronous loader of builtins
 * (`process.getBuiltinModule`, which Deno has) gives the same module, only
 * slower to start (Deno's `process` global sets up the whole Node layer).
 */
function workerThreads(): WorkerThreads {
  if (threads) return threads;
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  const loaded = node?.getBuiltinModule?.("node:worker_threads") as WorkerThreads | undefined;
  if (typeof loaded?.Worker !== "function") {
    throw new GuardError("check-failed", NOT_LOADED);
  }
  threads = loaded;
  return threads;
}

// Slots of the shared state: what the worker did last, and its answer.
const STATE = 0; // 0 busy, 1 done, 2 ready
const ANSWER = 1; // 1 done (the result is on the port), -1 the work threw (its message is)
// The helper runs tasks by name: each is defined once per helper thread (its code, compiled there,
// and the modules it imports, loaded there) and then run with an input, its result sent on the
// port before the state flips, so the waiting thread finds it there.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const shared = new Int32Array(workerData.buffer);
const tasks = new Map();
function reply(answer, result) {
  workerData.port.postMessage(result);
  Atomics.store(shared, ${ANSWER}, answer);
  Atomics.store(shared, ${STATE}, 1);
  Atomics.notify(shared, ${STATE});
}
function why(error) {
  return error instanceof RangeError && /call stack/i.test(error.message)
    ? "it ran out of stack"
    : String((error && error.message) || error);
}
parentPort.on("message", async ({ define, name, input }) => {
  if (define) {
    try {
      const libs = {};
      for (const [key, url] of Object.entries(define.imports)) libs[key] = await import(url);
      tasks.set(name, new Function("libs", define.source)(libs));
      reply(1, null);
    } catch (error) {
      reply(-1, why(error));
    }
    return;
  }
  let result;
  try {
    result = tasks.get(name)(input);
  } catch (error) {
    reply(-1, why(error));
    return;
  }
  reply(1, result);
});
Atomics.store(shared, ${STATE}, 2);
Atomics.notify(shared, ${STATE});
`;

/** How long a new worker may take to start or load a task's modules, apart from the work's own limit. */
const STARTUP_LIMIT_MS = 10_000;

interface Helper {
  worker: Worker;
  shared: Int32Array;
  /** Where the helper puts a task's result, read synchronously. */
  port: MessagePort;
  /** The tasks this helper thread has compiled. */
  defined: Set<string>;
}

let helper: Helper | undefined;

function startHelper(): Helper {
  const { MessageChannel, Worker } = workerThreads();
  const buffer = new SharedArrayBuffer(8);
  const shared = new Int32Array(buffer);
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { buffer, port: port2 },
    transferList: [port2],
  });
  // An idle helper must not keep the process alive.
  worker.unref();
  worker.on("error", () => stopHelper());
  if (Atomics.wait(shared, STATE, 0, STARTUP_LIMIT_MS) === "timed-out") {
    void worker.terminate();
    throw new GuardError(
      "check-failed",
      `the helper thread did not start within ${STARTUP_LIMIT_MS / 1000} s`,
    );
  }
  return { worker, shared, port: port1, defined: new Set() };
}

function stopHelper(): void {
  const old = helper;
  helper = undefined;
  if (old) {
    old.port.close();
    void old.worker.terminate();
  }
}

/**
 * Work the helper thread can run under a time limit: JavaScript source, the
 * body of a function of `libs` (the imported modules, by key) that returns
 * the function run with each input. The code sees nothing of the calling
 * module: what it needs comes in `imports` (module URLs, from
 * `import.meta.resolve`) or in the input. Inputs and results are
 * structured-cloned.
 */
export interface GuardedTask {
  /** A name unique to this task. */
  name: string;
  /** The body of `function (libs) { …; return (input) => result; }`. */
  source: string;
  /** The modules the code needs, imported once per helper thread, as `libs[key]`. */
  imports: Record<string, string>;
}

/**
 * Work that did not finish within its time limit (`check-timeout`), or
 * could not run (`check-failed`: it threw, ran out of stack, or the helper
 * could not start).
 *
 * @example
 * ```ts
 * import { GuardError, runGuarded } from "./regex.ts";
 * await import("node:worker_threads");
 * const task = { name: "spin", source: "return () => { for (;;) {} };", imports: {} };
 * try {
 *   runGuarded(task, null, 100);
 *   throw new Error("expected a timeout");
 * } catch (error) {
 *   if (!(error instanceof GuardError) || error.code !== "check-timeout") throw error;
 * }
 * ```
 */
export class GuardError extends Error {
  /** `check-timeout` when the work ran out of time, `check-failed` when it could not run. */
  readonly code: "check-timeout" | "check-failed";
  /** Creates the error with its code and message. */
  constructor(code: GuardError["code"], message: string) {
    super(message);
    this.name = "GuardError";
    this.code = code;
  }
}

/**
 * Runs a task on the helper thread and waits, at most `limitMs`, for its
 * result; a task that takes longer is abandoned and its thread terminated,
 * which stops V8 mid-work, so the caller is never blocked past the limit
 * (and a signal waits no longer than that). One mechanism for every check
 * whose work the input controls: regular expressions, XPath, JSON Schema.
 * Throws {@linkcode GuardError}. The helper's module is best loaded first
 * with {@linkcode prepareGuard}.
 *
 * @example
 * ```ts
 * import { prepareGuard, runGuarded } from "./regex.ts";
 * await prepareGuard();
 * const task = { name: "double", source: "return (n) => n * 2;", imports: {} };
 * if (runGuarded(task, 21) !== 42) throw new Error();
 * ```
 */
export function runGuarded(
  task: GuardedTask,
  input: unknown,
  limitMs: number = MATCH_TIME_LIMIT_MS,
): unknown {
  if (blockedMs >= GUARD_BUDGET_MS) {
    throw new GuardError(
      "check-failed",
      `the checks before it already waited ${
        formatMs(GUARD_BUDGET_MS)
      } for the helper thread without a pause (a check over every item of a long list?)`,
    );
  }
  helper ??= startHelper();
  if (!helper.defined.has(task.name)) {
    const define = { source: task.source, imports: task.imports };
    call({ define, name: task.name }, STARTUP_LIMIT_MS);
    helper?.defined.add(task.name);
  }
  return call({ name: task.name, input }, limitMs);
}

/**
 * Loads the helper thread's module (`node:worker_threads`), for a run that
 * has a check running on it (XPath, schemas; see {@linkcode prepareRegex}
 * for regular expressions).
 *
 * @example
 * ```ts
 * import { prepareGuard } from "./regex.ts";
 * await prepareGuard();
 * ```
 */
export async function prepareGuard(): Promise<void> {
  threads ??= await import("node:worker_threads");
}

function call(message: unknown, limitMs: number): unknown {
  helper ??= startHelper();
  const { worker, shared, port } = helper;
  const { receiveMessageOnPort } = threads!;
  // A reply left over from abandoned work must not be read as this one's.
  while (receiveMessageOnPort(port)) { /* drained */ }
  Atomics.store(shared, STATE, 0);
  worker.postMessage(message);
  const started = performance.now();
  const waited = Atomics.wait(shared, STATE, 0, limitMs);
  noteBlocked(performance.now() - started);
  if (waited === "timed-out") {
    // The work may run for hours: stop its thread and start afresh next time.
    stopHelper();
    throw new GuardError("check-timeout", `did not finish within ${formatMs(limitMs)}`);
  }
  const answer = Atomics.load(shared, ANSWER);
  const reply = receiveMessageOnPort(port);
  if (!reply) throw new GuardError("check-failed", "its result did not arrive");
  if (answer === -1) throw new GuardError("check-failed", String(reply.message));
  return reply.message;
}

/** How long the calling thread has waited for the helper since the event loop last turned. */
let blockedMs = 0;
let resetPending = false;

/**
 * The most the calling thread waits for the helper between two turns of the
 * event loop: 3 s. Each wait is bounded, but a check group over 300,000 list
 * items with a slow pattern made 300,000 of them in a row, during which no
 * signal was seen; past this, guarded work fails at once until the thread
 * gives way (between steps, see {@linkcode giveWayAfterGuards}).
 *
 * @example
 * ```ts
 * import { GUARD_BUDGET_MS } from "./regex.ts";
 * if (GUARD_BUDGET_MS !== 3000) throw new Error();
 * ```
 */
export const GUARD_BUDGET_MS = 3000;

function noteBlocked(ms: number): void {
  blockedMs += ms;
  if (resetPending) return;
  resetPending = true;
  // Runs at the next turn of the event loop, which ends the stretch of waiting.
  setTimeout(() => {
    blockedMs = 0;
    resetPending = false;
  }, 0);
}

/**
 * Gives way to the event loop (a macrotask) when the calling thread has
 * spent more than 100 ms waiting for the helper since it last did, else
 * returns at once. Waiting blocks the thread; a run whose steps send nothing
 * (conditions that do not hold) never reached the event loop between its
 * checks, so SIGINT was not seen, and abandoned helper threads, whose
 * termination needs the event loop, kept running. A runner calls this
 * between steps.
 *
 * @example
 * ```ts
 * import { giveWayAfterGuards } from "./regex.ts";
 * await giveWayAfterGuards();
 * ```
 */
export async function giveWayAfterGuards(): Promise<void> {
  if (blockedMs < 100) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
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

const NOT_LOADED = "the helper thread's module is not loaded: call prepareGuard() first";

/** A match on the helper thread, its errors as MatchTimeoutError. */
function ask(source: string, input: string, exec: boolean, limitMs: number): unknown {
  try {
    return runGuarded(REGEX_TASK, { source, input, exec }, limitMs);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-timeout") {
      throw new MatchTimeoutError(
        "regex-timeout",
        `the match did not finish within ${formatMs(limitMs)}`,
      );
    }
    throw new MatchTimeoutError(
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
    throw new MatchTimeoutError("regex-failed", "the match's groups did not arrive");
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

/** Steps a match on the calling thread may take at worst (see isTame): well under 0.1 s. */
const TAME_STEPS = 1e7;

/**
 * What bounds a pattern's backtracking, or undefined when nothing simple
 * does: `open` quantifiers without an upper bound, and `factor`, the product
 * of the choices every other quantifier and alternative adds.
 */
type Shape = { open: number; factor: number } | undefined;

const shapes = new BoundedCache<Shape>(1000);

/**
 * Whether a match may run on the calling thread: its worst case is small for
 * this input. A pattern with no backreference, no lookaround and no
 * quantified group (the nesting that makes backtracking exponential) tries
 * each of the n + 1 start positions with at most (n + 1)^open ways to split
 * the input between its open-ended quantifiers, times the choices of its
 * bounded ones and alternatives. When that product is under
 * {@linkcode TAME_STEPS}, the helper thread's round trip (about 0.2 ms) and
 * start are not needed. Most patterns in flows (`^item-`, `^[a-z]+-\d+$` on
 * a field, `"id":"([^"]+)"` on a body) qualify.
 */
function isTame(source: string, length: number): boolean {
  const shape = shapes.get(source, () => shapeOf(source));
  return shape !== undefined && (length + 1) ** (shape.open + 1) * shape.factor <= TAME_STEPS;
}

function shapeOf(source: string): Shape {
  let open = 0;
  let factor = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      if (/[1-9k]/.test(source[i + 1] ?? "")) return undefined; // a backreference
      i++;
    } else if (c === "[") {
      // A class is one character, whatever it holds.
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
    } else if (c === "(") {
      if (/^\?<?[=!]/.test(source.slice(i + 1, i + 4))) return undefined; // lookaround
    } else if (c === ")") {
      if (/[*+?{]/.test(source[i + 1] ?? "")) return undefined; // a quantified group
    } else if (c === "*" || c === "+") {
      open++;
      if (source[i + 1] === "?") i++; // lazy: the same choices in another order
    } else if (c === "?" || c === "|") {
      factor *= 2;
    } else if (c === "{") {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!bound) continue; // a literal "{"
      if (bound[3] === "") open++;
      else if (bound[3] !== undefined) factor *= Number(bound[3]) - Number(bound[1]) + 1;
      i += bound[0].length - 1;
      if (source[i + 1] === "?") i++;
    }
  }
  return { open, factor };
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
