/**
 * Running: loaded flows → run result. Setup flows first, one after the
 * other; then the flows, `jobs` at a time (a flow's steps stay in order, see
 * `flow.ts` and `steps.ts`); then teardown flows, whatever happened. A
 * flow's failure never stops other flows (unless `failFast`); each flow run
 * has its own vars and captures; only the run id and setup outputs are
 * shared. A flow that does not pass is re-run up to `retries` times
 * (`rerun.ts`); setup and teardown flows only by their own `retries:`.
 *
 * @module
 */
import { reasonOf } from "../http/request_error.ts";
import type { DeferredFlow, Flow } from "../model/flow.ts";
import { type FlowResult, type RunResult, totalsOf } from "../model/result.ts";
import { VERSION } from "../model/version.ts";
import { CLEANUP_GRACE_MS, type Context, round } from "./context.ts";
import { runOne } from "./flow.ts";
import { closingKinds } from "./kinds_closed.ts";
import { maskFlow, maskFlows } from "./mask_result.ts";
import { runRetried } from "./rerun.ts";
import { makeContext } from "./make_context.ts";
import type { RunOptions } from "./options.ts";
import { expandRows, parsed, prepare, rowSecrets } from "./prepare.ts";
import { type FailFast, notStarted, runStarted, type Setup, splitSerial } from "./schedule.ts";
import { notRun } from "./skipped.ts";
import { workerCount } from "./workers/plan.ts";

/**
 * Runs one flow. Never throws for failures in the flow: they are results.
 *
 * @example
 * ```ts
 * import { loadFlow } from "../load/load_flow.ts";
 * import { runFlow } from "./flows.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ state: "ready" }));
 * const url = `http://127.0.0.1:${server.addr.port}`;
 * const { flow } = loadFlow(
 *   `name: ping\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert:\n      status: 200\n      json: [{path: $.json.state, equals: ready}]\n`,
 *   "ping.yaml",
 * );
 * const result = await runFlow(flow!, { runId: "r1" });
 * await server.shutdown();
 * if (result.status !== "passed" || result.steps[0].assertions.length !== 2) throw new Error();
 * ```
 */
export async function runFlow(flow: Flow, options: RunOptions = {}): Promise<FlowResult> {
  await prepare([flow]);
  const ctx = makeContext(options);
  try {
    const result = await closingKinds(() => runOne(flow, ctx));
    maskFlow(result, ctx.redactor);
    return result;
  } finally {
    ctx.deadlines?.close();
  }
}

/**
 * Runs flows, `jobs` at a time, and assembles the run result that the
 * reports serialise: flows in the order given (sorted by path when loaded
 * with `loadFlows`), whatever order they finish in. Never throws for test
 * failures.
 *
 * @example
 * ```ts
 * import { runFlows } from "./flows.ts";
 * const result = await runFlows([], { runId: "empty" });
 * if (result.status !== "passed" || result.totals.flows.total !== 0) throw new Error();
 * ```
 */
export async function runFlows(
  given: readonly (Flow | DeferredFlow)[],
  options: RunOptions = {},
): Promise<RunResult> {
  // Data columns named like secrets are secrets, as vars of those names from a vars file are
  // (setup and teardown flows' rows too: they run with them).
  const secrets = rowSecrets(
    [...options.setup ?? [], ...given, ...options.teardown ?? []],
    options.secrets ?? [],
  );
  const ctx = makeContext(options);
  for (const value of secrets) ctx.secret(value);
  // A row is named by a value, masked with the secrets known before anything runs.
  const flows: (Flow | DeferredFlow | undefined)[] = expandRows(given, ctx.redactor);
  try {
    // Already done by loadFlows; flows built another way get their schemas compiled here.
    // (The list is a temporary, so no variable of this async function keeps it alive.)
    await prepare([...options.setup ?? [], ...given, ...options.teardown ?? []], options.signal);
    // The caller handed the flows over: its list is emptied (a variable of a suspended caller
    // may still point at it), and each flow is dropped here once it has run.
    if (options.release) (given as unknown[]).length = 0;
    return await closingKinds(() => runAll(flows, options, ctx));
  } finally {
    ctx.deadlines?.close();
    // After a throw too: queued events still reach the reports (their errors yield to the throw's).
    await ctx.settle?.().catch(() => {});
  }
}

/** The run itself: setup flows, the flows by `jobs` workers, teardown flows, the result. */
async function runAll(
  flows: (Flow | DeferredFlow | undefined)[],
  options: RunOptions,
  ctx: Context,
): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  await ctx.reporter.onRunStart?.({
    run_id: ctx.runId,
    runner_version: VERSION,
    started_at: startedAt,
    files: [...options.setup ?? [], ...flows, ...options.teardown ?? []].map((f) => f!.file),
  });
  const setup = await runSetup(options.setup ?? [], ctx);
  const middle = await runMiddle(flows, options, ctx, setup);
  // Without the holes of unlisted flows (`RunOptions.unlisted`).
  const results = options.unlisted ? middle.results.filter(() => true) : middle.results;
  const threads = middle.threads;
  const teardown = await runTeardown(options.teardown ?? [], ctx, setup.forTeardown);
  // Every event handled (and every result compacted) before the run's result is made.
  await ctx.settle?.();
  results.unshift(...setup.results);
  results.push(...teardown);
  // Masked once more with every secret of the run: a later flow may have met a value as a secret
  // that an earlier flow's result holds. (Flows masked with all of them already are skipped.)
  maskFlows(results, ctx.redactor);
  const result: RunResult = {
    run_id: ctx.runId,
    runner_version: VERSION,
    started_at: startedAt,
    duration_ms: round(performance.now() - started),
    status: results.every((f) => f.status === "passed") ? "passed" : "failed",
    ...(ctx.signal?.aborted ? { interrupted: reasonOf(ctx.signal) } : {}),
    totals: totalsOf(results),
    workers: threads,
    ...(ctx.coverage
      ? { openapi_coverage: ctx.coverage.result((t) => ctx.redactor.redact(t)) }
      : {}),
    flows: results,
  };
  await ctx.reporter.onRunEnd?.(result);
  return result;
}

/** Setup flows, one after the other; after one does not pass, the rest are not run. */
async function runSetup(flows: readonly Flow[], ctx: Context): Promise<Setup> {
  const setup: Setup = {
    results: [],
    outputs: new Map(),
    forTeardown: new Map(),
    failed: undefined,
  };
  for (const flow of flows) {
    if (setup.failed !== undefined || ctx.signal?.aborted) {
      const r = notRun(flow, `Not run: ${setup.failed ?? "the run was interrupted"}.`, "skipped");
      r.role = "setup";
      setup.results.push(r);
      await ctx.reporter.onFlowEnd?.(r);
      continue;
    }
    const outputs = new Map<string, unknown>();
    // A setup flow obtains what the run's auth may read (`${setup.token}`): it is not given it.
    const c = ctx.auth ? { ...ctx, auth: undefined } : ctx;
    // Re-run only by its own `retries:`: a setup that makes data is re-run where its author says.
    const r = await runRetried(flow, c, { retries: flow.retries ?? 0, outputs, role: "setup" });
    ctx.detailed = c.detailed;
    setup.results.push(r);
    if (r.status !== "passed" || outputs.has("\0failed")) {
      setup.failed = `setup flow "${flow.name}" did not pass${
        // Why quotes an expression's message: a value, masked here (the skip reason is own text).
        outputs.has("\0failed")
          ? ` (its outputs: ${ctx.redactor.redact(String(outputs.get("\0failed")))})`
          : ""}`;
    } else for (const [k, v] of outputs) setup.outputs.set(k, v);
    for (const [k, v] of outputs) if (k !== "\0failed") setup.forTeardown.set(k, v);
  }
  if (setup.failed !== undefined) setup.forTeardown.set("\0failed", setup.failed);
  // Set up, whatever it handed out: a read of an output it left unset says so (template.ts).
  else if (flows.length > 0) setup.outputs.set("\0ran", true);
  return setup;
}

/**
 * The flows between setup and teardown, each result at the flow's place:
 * those that may run beside others first (on worker threads when the run
 * has them, see `workers/plan.ts`; else `jobs` at a time on this thread),
 * then the `serial: true` ones, one at a time.
 */
async function runMiddle(
  flows: (Flow | DeferredFlow | undefined)[],
  options: RunOptions,
  ctx: Context,
  setup: Setup,
): Promise<{ results: FlowResult[]; threads: number }> {
  const results = new Array<FlowResult>(flows.length);
  const state: FailFast = { failedFlow: undefined };
  const { parallel, serial } = splitSerial(flows);
  const jobs = options.jobs ?? navigator.hardwareConcurrency ?? 1;
  const count = options.workers && setup.failed === undefined && !ctx.signal?.aborted
    ? workerCount({
      count: options.workers.count,
      cores: navigator.hardwareConcurrency ?? 1,
      jobs,
      flows: parallel.length,
    })
    : 0;
  const run = { flows, results, options, ctx, setup, state };
  if (count > 0) {
    const { runPool } = await import("./workers/pool.ts");
    // The workers start with every secret main's redactor holds (the caller's own, from
    // --secret or a proxy's password, too: a worker masks a body before it cuts it, and a
    // secret's beginning left at the cut is no longer recognisable); later ones as they come.
    const known = ctx.redactor.added();
    await runPool({ ...run, order: parallel, workerOptions: options.workers!, count, jobs, known });
  } else await runJobs(run, parallel, jobs);
  await runJobs(run, serial, 1);
  // 0 workers: the main thread alone ran them.
  return { results, threads: Math.max(count, 1) };
}

/** What {@linkcode runJobs} shares with the rest of the run. */
interface Middle {
  flows: (Flow | DeferredFlow | undefined)[];
  results: FlowResult[];
  options: RunOptions;
  ctx: Context;
  setup: Setup;
  state: FailFast;
}

/**
 * The flows at `order`, `jobs` at a time on this thread. Each job takes the
 * next flow in order, so with `--jobs 1` the run is strictly sequential.
 */
async function runJobs(
  { flows, results, options, ctx, setup, state }: Middle,
  order: readonly number[],
  jobs: number,
): Promise<void> {
  let next = 0;
  const job = async () => {
    while (next < order.length) {
      const index = order[next++];
      // A flow held as its bytes is parsed now, in turn: flows wait for their turn as bytes.
      const flow = await parsed(flows[index]!);
      // Each flow (its steps, templates, compiled paths) is garbage once it has run.
      if (options.release) flows[index] = undefined;
      const skipped = notStarted(flow, setup, ctx, state.failedFlow);
      if (skipped) {
        results[index] = skipped;
        await ctx.reporter.onFlowEnd?.(skipped);
      } else {
        results[index] = await runStarted(flow, ctx, options.retries, setup.outputs, state);
        if (
          options.failFast && results[index].status !== "passed" && state.failedFlow === undefined
        ) {
          state.failedFlow = flow.file;
        }
      }
      // Reported, and not to be listed: dropped (a hole), so the run keeps nothing of it.
      if (options.unlisted?.(results[index])) delete results[index];
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, order.length)) }, job));
}

/** Teardown flows run whatever happened; after an interrupt, within the cleanup grace period. */
async function runTeardown(
  flows: readonly Flow[],
  ctx: Context,
  outputs: ReadonlyMap<string, unknown>,
): Promise<FlowResult[]> {
  const results: FlowResult[] = [];
  for (const flow of flows) {
    const c = ctx.signal?.aborted ? { ...ctx, signal: AbortSignal.timeout(CLEANUP_GRACE_MS) } : ctx;
    // After an interrupt, cleanup runs once: no re-run within the grace period.
    const stop = () => ctx.signal?.aborted ?? false;
    const rerun = { retries: flow.retries ?? 0, setup: outputs, stop, role: "teardown" as const };
    results.push(await runRetried(flow, c, rerun));
  }
  return results;
}
