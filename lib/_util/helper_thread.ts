/**
 * The helper thread that guarded work runs on: a `node:worker_threads`
 * worker, kept for reuse, that the calling thread waits for with
 * `Atomics.wait`, and terminates when the work takes too long (which does
 * stop V8 mid-work). The time limit and the budget of waiting are
 * `time_guard.ts`'s; this module starts, feeds and stops the thread. Private
 * helper of `_util/`.
 *
 * `node:worker_threads` is imported only when a run needs it
 * ({@linkcode loadWorkerThreads}): importing any `node:` builtin starts Deno's
 * Node compatibility layer (about 10 ms in a fresh process).
 *
 * @module
 */
// Types only: see loadWorkerThreads.
import type { MessagePort, Worker } from "node:worker_threads";
import { formatMs, GuardError } from "./guard_error.ts";

/** The module of the helper thread. */
type WorkerThreads = typeof import("node:worker_threads");

let threads: WorkerThreads | undefined;

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
 * Imports the helper thread's module (`node:worker_threads`), once.
 *
 * @example
 * ```ts
 * import { loadWorkerThreads } from "./helper_thread.ts";
 * await loadWorkerThreads();
 * ```
 */
export async function loadWorkerThreads(): Promise<void> {
  threads ??= await import("node:worker_threads");
  cpu ??= (await import("node:process")).default;
}

/** The process's CPU clock (`process.cpuUsage`), loaded with the threads' module. */
let cpu: { cpuUsage(): { user: number; system: number } } | undefined;

/**
 * The CPU milliseconds the process has used (its helper thread's included), or the wall clock's
 * where no CPU clock was loaded: then a limit is one of wall time, as it always was.
 */
function cpuMs(): number {
  const used = cpu?.cpuUsage?.();
  return used ? (used.user + used.system) / 1000 : performance.now();
}

/**
 * How many times its limit a starved check is waited for, at most: a thread the machine hardly
 * runs (its CPU time under the limit) is waited for, but not forever.
 */
const STARVED_FACTOR = 10;

/**
 * The message of the error a guarded call fails with when the helper's
 * module was not loaded and cannot be now.
 *
 * @example
 * ```ts
 * import { NOT_LOADED } from "./helper_thread.ts";
 * if (!NOT_LOADED.includes("prepareGuard()")) throw new Error();
 * ```
 */
export const NOT_LOADED = "the helper thread's module is not loaded: call prepareGuard() first";

/**
 * `node:worker_threads`, loaded by {@linkcode loadWorkerThreads}, or now for
 * a caller that did not: Node's synchronous loader of builtins
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
  cpu ??= node?.getBuiltinModule?.("node:process") as typeof cpu;
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
 * Runs a task on the helper thread (started, and the task defined there,
 * when needed) and waits at most `limitMs` for its result; `blocked` is told
 * how long each wait blocked the calling thread. Throws {@linkcode GuardError}.
 *
 * @example
 * ```ts
 * import { loadWorkerThreads, runOnHelper } from "./helper_thread.ts";
 * await loadWorkerThreads();
 * const task = { name: "triple", source: "return (n) => n * 3;", imports: {} };
 * if (runOnHelper(task, 14, 1000, () => {}) !== 42) throw new Error();
 * ```
 */
export function runOnHelper(
  task: GuardedTask,
  input: unknown,
  limitMs: number,
  blocked: (ms: number) => void,
): unknown {
  helper ??= startHelper();
  if (!helper.defined.has(task.name)) {
    const define = { source: task.source, imports: task.imports };
    call({ define, name: task.name }, STARTUP_LIMIT_MS, blocked);
    helper?.defined.add(task.name);
  }
  return call({ name: task.name, input }, limitMs, blocked);
}

function call(message: unknown, limitMs: number, blocked: (ms: number) => void): unknown {
  helper ??= startHelper();
  const { worker, shared, port } = helper;
  const { receiveMessageOnPort } = threads!;
  // A reply left over from abandoned work must not be read as this one's.
  while (receiveMessageOnPort(port)) { /* drained */ }
  Atomics.store(shared, STATE, 0);
  worker.postMessage(message);
  const { waited, used, wall } = waitForWork(shared, limitMs);
  // A starved wait blocked the thread for its CPU's worth, not its wall time.
  blocked(Math.min(wall, used));
  if (waited === "timed-out") {
    // The work may run for hours: stop its thread and start afresh next time.
    stopHelper();
    const busy = used < limitMs
      ? ` (the machine was busy: the work got ${formatMs(used)} of CPU in ${formatMs(wall)})`
      : "";
    throw new GuardError("check-timeout", `did not finish within ${formatMs(limitMs)}${busy}`);
  }
  const answer = Atomics.load(shared, ANSWER);
  const reply = arrived(port);
  if (!reply) throw new GuardError("check-failed", "its result did not arrive");
  if (answer === -1) throw new GuardError("check-failed", String(reply.message));
  return reply.message;
}

/**
 * Waits for the helper's answer: `limitMs` of the work's CPU time, not of the wall clock (a busy
 * machine runs the helper seldom, and a two-line schema "did not compile within 2 s"), and at
 * most {@linkcode STARVED_FACTOR} times the limit in wall time. The process's CPU clock counts
 * the helper, as the calling thread waits without using any; other threads' work counts too,
 * which only ends a wait sooner, as the wall clock did.
 */
function waitForWork(
  shared: Int32Array,
  limitMs: number,
): { waited: "ok" | "not-equal" | "timed-out"; used: number; wall: number } {
  const started = performance.now();
  const cpuAt = cpuMs();
  let waited = Atomics.wait(shared, STATE, 0, limitMs);
  let wall = performance.now() - started;
  let used = cpuMs() - cpuAt;
  while (waited === "timed-out" && used < limitMs && wall < limitMs * STARVED_FACTOR) {
    const next = Math.min(limitMs - used, limitMs * STARVED_FACTOR - wall);
    waited = Atomics.wait(shared, STATE, 0, Math.max(1, next));
    wall = performance.now() - started;
    used = cpuMs() - cpuAt;
  }
  return { waited, used, wall };
}

/** How long a result the helper says it sent may take to reach the port. */
const ARRIVAL_LIMIT_MS = 2_000;

/**
 * The reply on `port`. The helper posts it before it flips the state, yet on
 * a loaded machine a clean-clone CI run found the state flipped and the port
 * still empty (a valid OpenAPI document reported as one whose schemas could
 * not be used): the message is waited for a little, a millisecond at a time.
 */
function arrived(port: MessagePort): { message: unknown } | undefined {
  const { receiveMessageOnPort } = threads!;
  const until = performance.now() + ARRIVAL_LIMIT_MS;
  let reply = receiveMessageOnPort(port);
  while (!reply && performance.now() < until) {
    Atomics.wait(pause, 0, 0, 1);
    reply = receiveMessageOnPort(port);
  }
  return reply;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Whether the helper thread's module is loaded.
 *
 * @example
 * ```ts
 * import { loadWorkerThreads, workerThreadsLoaded } from "./helper_thread.ts";
 * await loadWorkerThreads();
 * if (!workerThreadsLoaded()) throw new Error();
 * ```
 */
export function workerThreadsLoaded(): boolean {
  return threads !== undefined;
}
