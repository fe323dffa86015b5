/**
 * Running: loaded flows → run result, the outer levels of the runner (the
 * file loop and the flow's step loop) over `run/`: one attempt
 * (`attempt.ts`), one step with its poll loop (`step.ts`), and the pure turn
 * of an outcome into a step result (`step_result.ts`). Steps of a flow run in order; the first
 * step that does not pass stops its flow and the rest are reported skipped
 * with the reason. A flow's failure never stops other flows. Each flow run has
 * its own vars and captures; only the run id is shared.
 *
 * @module
 */
import { Deadlines } from "../http/deadlines.ts";
import { applyOperator, UNDECIDED } from "../check/assert.ts";
import { ExpressionError, randomHex, render, type Scope } from "../expr/template.ts";
import { internalError } from "../_util/internal_error.ts";
import { show } from "../check/json_value.ts";
import { reasonOf } from "../http/request_error.ts";
import { type DeferredFlow, type Flow, isDeferred, type Step, type VarDef } from "../model/flow.ts";
import { isSecretName, Redactor } from "../secrets/mod.ts";
import { isSecretCaptureName } from "../secrets/names.ts";
import {
  type SecretInputs,
  secretInputs,
  secretLeaves,
  secretRowValues,
} from "../secrets/discover.ts";
import type { Reporter } from "../report/reporter.ts";
import { queueReporter } from "../report/queued.ts";
import type { ByteSpill } from "../model/spill.ts";
import {
  compactFlow,
  type FlowResult,
  type RunResult,
  spillSteps,
  type StepResult,
  totalsOf,
} from "../model/result.ts";
import { CLEANUP_GRACE_MS, type Context, type Network, round, type WithJar } from "./context.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import { runStep } from "./step.ts";
import { prepareSchemas } from "../load/schema_compile.ts";
import { prepareXPath } from "../check/xpath.ts";
import { prepareRegex } from "../_util/regex.ts";
import { giveWayAfterGuards } from "../_util/time_guard.ts";
import { emptyResult } from "./step_result.ts";
import { VERSION } from "../model/version.ts";

/** Options of a run. */
export interface RunOptions {
  /** Reads environment variables (default: none are set). */
  env?: (name: string) => string | undefined;
  /** Run parameters (`--var`): override flow vars of the same name and add new ones. */
  params?: ReadonlyMap<string, string>;
  /** The run id behind `${RUN_ID}`; generated when absent. */
  runId?: string;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /**
   * The largest response body read, decompressed, in bytes (default 10 MiB):
   * a larger one fails its step with `body-too-large`, and memory stays
   * bounded by the cap × `jobs`.
   */
  maxBodyBytes?: number;
  /**
   * The most body bytes held in memory for checks (default 64 MiB, at most
   * 500 MiB): a larger body goes to a temporary file, and only checks of
   * status, headers and cookies run on its response.
   */
  bodyMemoryBytes?: number;
  /** Flows run at once (default: the number of CPUs); steps inside a flow stay sequential. */
  jobs?: number;
  /** After the first flow that does not pass, start no new flows; the rest are reported skipped. */
  failFast?: boolean;
  /**
   * Interrupts the run: no new requests are sent, requests in flight are
   * abandoned, and unfinished steps are reported skipped as `interrupted`.
   * Abort it with the signal's name as reason (`controller.abort("SIGINT")`).
   */
  signal?: AbortSignal;
  /**
   * The run's secrets. Every result and event the run reports has been
   * masked by it, and every value shortened for a message was masked first.
   * The runner adds what it meets before anything that may contain it is
   * reported: values of secret-named environment variables it reads and of
   * secret-named or {@linkcode RunOptions.secrets} parameters; values sent in
   * secret places (secret headers, cookies, URL credentials, secret-named
   * query parameters and body fields), and whatever they came from (a var, a
   * capture); values captured under secret names, whatever their type;
   * cookies a server sets, secret response headers, and values under
   * secret-named keys of response bodies. Pass the one the CLI masks its
   * outputs with; default: a new one.
   */
  redactor?: Redactor;
  /** Names of run parameters and environment variables that are secret whatever their name (`--secret`). */
  secrets?: readonly string[];
  /** Called with every value registered as secret (after {@linkcode RunOptions.redactor} has it). */
  onSecret?: (value: string) => void;
  /**
   * Sends a W3C `traceparent` on every request that does not set its own:
   * the flow run's trace id (also `${TRACE_ID}`), a fresh span id per
   * request, the sampled flag. Trace and span ids go into the results.
   */
  trace?: boolean;
  /**
   * Every flow run keeps a cookie jar (cookies responses set are sent back on
   * matching requests, like a browser), as with `options: {cookie_jar: true}`
   * in every flow. Flows still share nothing: each run has its own jar.
   */
  cookieJar?: boolean;
  /**
   * How much of each exchange results keep: 0 (default) the request and
   * response of steps that did not pass; 1 (`-v`) of every step, bodies cut
   * at a few KiB for passing ones; 2 (`-vv`) of every step, whole bodies.
   */
  verbose?: number;
  /**
   * Secret values the run read from variables, by value: a failing step's
   * `curl` command writes them as `"$NAME"` instead of masking them.
   */
  secretVariables?: ReadonlyMap<string, string>;
  /**
   * Hand the flows over: the runner empties the list it is given and drops
   * each flow once it has run, so memory stays flat however many there are
   * (only their results are kept). The caller must hold no other reference.
   */
  release?: boolean;
  /**
   * Shrink each flow's result once the reporters have seen it in
   * `onFlowEnd` (see `compactFlow`): the returned result keeps flows'
   * statuses and timings, every step's status and check count, and failed
   * steps' names, positions and messages, but no headers, bodies or values,
   * so memory stays flat however long the run.
   * For reporters that keep each flow's piece as it ends (the CLI's).
   */
  compact?: boolean;
  /**
   * With `compact`, where the kept steps of flows that did not pass wait
   * until the end of the run (`byteSpill` in `lib/io/byte_spill.ts`; see `spillSteps`).
   */
  spill?: ByteSpill;
  /**
   * How requests reach servers: PEM certificates trusted besides the
   * system's (`--cacert`), a client certificate and key (`--cert`,
   * `--key`), a proxy (`--proxy`) and hosts reached without it
   * (`--no-proxy`). A flow's options add CAs and override the rest.
   */
  network?: Network;
  /** Receives the run's events (console, reports, log). */
  reporter?: Reporter;
  /**
   * Let the reporter's hooks run while requests are in flight (see
   * `queueReporter`): the runner queues each event and goes on, and the
   * queue is worked off while a server answers. Events keep their order;
   * all have been handled when `runFlows` returns (an error a hook threw is
   * thrown then). For reporters that need not hold the runner back (the
   * CLI's); a reporter that must see an event before the next request leaves
   * it off.
   */
  overlapReporter?: boolean;
  /**
   * Setup flows: run once, in order, before the others; their `outputs`
   * become `${setup.NAME}` for every flow. When one does not pass, the other
   * flows are not run (teardown still is).
   */
  setup?: readonly Flow[];
  /**
   * Teardown flows: run after all the others, in order, whatever happened,
   * also after an interrupt (within the cleanup grace period).
   */
  teardown?: readonly Flow[];
}

/**
 * The default per-request timeout in milliseconds.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUT_MS } from "./flows.ts";
 * if (DEFAULT_TIMEOUT_MS !== 30_000) throw new Error();
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A fresh run id: UTC time to the second plus random hex, readable and safe
 * in URLs, file names and test data (`user-${RUN_ID}`).
 *
 * @example
 * ```ts
 * import { newRunId } from "./flows.ts";
 * if (!/^\d{8}-\d{6}-[0-9a-f]{6}$/.test(newRunId(new Date()))) throw new Error();
 * ```
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A step the flow did not get to, with the reason. */
function skipped(step: Step, reason: string, start_ms = 0): StepResult {
  return {
    ...emptyResult(step, start_ms),
    status: "skipped",
    message: reason,
    failure_kind: "skipped",
  };
}

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
  await prepareSchemas([flow]);
  await prepareXPath([flow]);
  await prepareRegex([flow]);
  const ctx = context(options);
  try {
    return await runOne(flow, ctx);
  } finally {
    ctx.deadlines?.close();
  }
}

/** The reporter, then the flow's result shrunk to what the end of the run needs. */
function compacting(reporter: Reporter, spill: ByteSpill | undefined): Reporter {
  return {
    ...reporter,
    async onFlowEnd(flow) {
      await reporter.onFlowEnd?.(flow);
      compactFlow(flow);
      if (spill) spillSteps(flow, spill);
    },
  };
}

function context(options: RunOptions): Context {
  const reporter = options.compact
    ? compacting(options.reporter ?? {}, options.spill)
    : options.reporter ?? {};
  const queued = options.overlapReporter ? queueReporter(reporter) : undefined;
  const redactor = options.redactor ?? new Redactor();
  const secret = (value: string) => {
    redactor.add(value);
    options.onSecret?.(value);
  };
  const named = new Set(options.secrets ?? []);
  const isSecret = (name: string) => named.has(name) || isSecretName(name);
  const params = options.params ?? new Map();
  for (const [name, value] of params) if (isSecret(name)) secret(value);
  const readEnv = options.env ?? (() => undefined);
  // Whether each variable name is secret, tested once: requests read the same few names.
  const secretNames = new Map<string, boolean>();
  return {
    env: (name) => {
      const value = readEnv(name);
      if (value === undefined) return value;
      let isSecretValue = secretNames.get(name);
      if (isSecretValue === undefined) secretNames.set(name, isSecretValue = isSecret(name));
      if (isSecretValue) secret(value);
      return value;
    },
    params,
    runId: options.runId ?? newRunId(),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes,
    bodyMemoryBytes: options.bodyMemoryBytes,
    reporter: queued ?? reporter,
    settle: queued?.drained,
    signal: options.signal,
    redactor,
    detailed: 0,
    secret,
    trace: options.trace ?? false,
    cookieJar: options.cookieJar,
    verbose: options.verbose ?? 0,
    secretVariables: options.secretVariables,
    network: options.network,
    deadlines: new Deadlines(),
  };
}

/** Registers what a flow sends in secret places, as soon as its vars exist. */
function registerInputs(inputs: SecretInputs, scope: Scope, ctx: Context): void {
  for (const literal of inputs.literals) ctx.secret(literal);
  for (const name of inputs.vars) {
    if (scope.vars.has(name)) secretLeaves(scope.vars.get(name), ctx.secret);
  }
  for (const name of inputs.env) {
    if (!scope.vars.has(name)) {
      const value = ctx.env(name);
      if (value !== undefined) ctx.secret(value);
    }
  }
}

async function runOne(
  flow: Flow,
  ctx: Context,
  setup?: ReadonlyMap<string, unknown>,
  outputs?: Map<string, unknown>,
): Promise<FlowResult> {
  const ref = { file: flow.file, name: flow.name };
  await ctx.reporter.onFlowStart?.(ref);
  const startedAt = new Date();
  const started = performance.now();
  const vars = new Map<string, unknown>();
  const steps = new Map<string, Map<string, unknown>>();
  const traceId = randomHex(32);
  // Each flow run has its own cookie jar, used by the steps that opt in.
  const scope: Live & WithJar = {
    env: ctx.env,
    vars,
    steps,
    runId: ctx.runId,
    traceId,
    setup,
    jar: new CookieJar(),
    jarOn: flow.options?.cookieJar ?? ctx.cookieJar,
  };
  const walk: Walk = { ref, started, results: [], maskedAt: [] };
  let stop: string | undefined;
  const inputs = secretInputs(flow);
  try {
    for (const v of flow.vars) vars.set(v.name, ctx.params.get(v.name) ?? render(v.value, scope));
    for (const [name, value] of ctx.params) if (!vars.has(name)) vars.set(name, value);
    registerInputs(inputs, scope, ctx);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    stop = `the flow's vars could not be evaluated: ${error.message}`;
  }
  stop = await runSteps(flow.steps, scope, ctx, walk, inputs, { prefix: "", stop });
  const results = walk.results;
  // A setup flow that passed hands its outputs to the run, evaluated in its own scope.
  if (outputs && flow.outputs && !stop && results.every((r) => r.status !== "failed")) {
    try {
      for (const o of flow.outputs) outputs.set(o.name, output(o, scope, ctx));
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      outputs.set("\0failed", error.message);
    }
  }
  // A step's result may hold a value that became secret later in the flow: mask it again then.
  const known = ctx.redactor.size;
  const flowResult: FlowResult = {
    file: flow.file,
    name: flow.name,
    status: flowStatus(results),
    ...(ctx.trace ? { trace_id: traceId } : {}),
    started_at: startedAt.toISOString(),
    duration_ms: round(performance.now() - started),
    steps: results.map((r, i) => walk.maskedAt[i] === known ? r : ctx.redactor.redactValue(r)),
  };
  await ctx.reporter.onFlowEnd?.(flowResult);
  return flowResult;
}

/** A scope whose step captures the runner fills in. */
type Live = Scope & { steps: Map<string, Map<string, unknown>> };

/** A flow run's results so far, and what each is reported against. */
interface Walk {
  ref: { file: string; name: string };
  started: number;
  results: StepResult[];
  /** How many secrets the redactor knew when each result was masked (-1: not masked yet). */
  maskedAt: number[];
}

/** Where a list of steps sits: the names before its steps' own, its file when included. */
interface Level {
  /** `"login › "` for the steps of an included flow. */
  prefix: string;
  /** The included file, for steps not written in the flow's own. */
  file?: string;
  /** Why the steps do not run (except cleanup), when something before them did not pass. */
  stop?: string;
}

/**
 * A result named for its level and recorded; masked and reported at once when a reporter
 * listens to steps, else masked when the flow ends.
 */
async function record(r: StepResult, level: Level, walk: Walk, ctx: Context): Promise<void> {
  const named = level.prefix === "" && !level.file
    ? r
    : { ...r, name: `${level.prefix}${r.name}`, ...(level.file ? { file: level.file } : {}) };
  const { onStepEnd } = ctx.reporter;
  if (!onStepEnd) {
    // Nobody sees it before the flow ends: it is masked then, once, with every secret the flow
    // met (masked now, most were masked twice: a step before a token's first use met it later).
    walk.results.push(named);
    walk.maskedAt.push(-1);
    return;
  }
  const result = ctx.redactor.redactValue(named);
  walk.results.push(result);
  walk.maskedAt.push(ctx.redactor.size);
  await onStepEnd.call(ctx.reporter, walk.ref, result);
}

/**
 * Runs steps in order; returns why the rest of the flow stops, if anything
 * stopped it: after the first step that does not pass, only cleanup steps
 * (`always: true`) run, within a grace period after an interrupt.
 */
async function runSteps(
  list: readonly Step[],
  scope: Live,
  ctx: Context,
  walk: Walk,
  inputs: SecretInputs,
  level: Level,
): Promise<string | undefined> {
  let stop = level.stop;
  const since = () => round(performance.now() - walk.started);
  for (const step of list) {
    // A step's checks may have blocked this thread on the helper: let a signal in first.
    await giveWayAfterGuards();
    if (!stop && ctx.signal?.aborted) stop = `the run was interrupted (${reasonOf(ctx.signal)})`;
    if (stop && !step.always) {
      const reason = `Skipped because ${stop.replace(/\.$/, "")}.`;
      const kind = ctx.signal?.aborted ? "interrupted" : "skipped";
      for (const leaf of leaves(step, level)) {
        await record(
          { ...skipped(leaf.step, reason, since()), failure_kind: kind },
          leaf,
          walk,
          ctx,
        );
      }
      continue;
    }
    // Cleanup runs after a failure, and after an interrupt within a bounded grace period.
    const c = stop && ctx.signal?.aborted
      ? { ...ctx, signal: AbortSignal.timeout(CLEANUP_GRACE_MS) }
      : ctx;
    const unmet = step.when ? unmetCondition(step, scope, ctx) : undefined;
    if (unmet?.kind === "condition") {
      for (const leaf of leaves(step, level)) {
        const r = skipped(leaf.step, unmet.message, since());
        await record({ ...r, failure_kind: "condition" }, leaf, walk, ctx);
      }
      continue;
    }
    if (unmet) {
      const r = skipped(step, unmet.message, since());
      await record({ ...r, status: "error", failure_kind: "expression" }, level, walk, ctx);
      stop ??= `step "${level.prefix}${step.name}" had an error`;
      continue;
    }
    if (step.include) {
      const failed = await runInclude(step, scope, c, walk, level);
      stop ??= failed;
    } else {
      const captured = new Map<string, unknown>();
      scope.steps.set(step.name, captured);
      const r = await runStep(walk.ref, step, scope, captured, c, walk.started, inputs);
      await record(r, level, walk, ctx);
      const name = `${level.prefix}${step.name}`;
      if (r.failure_kind === "interrupted") {
        stop ??= `the run was interrupted (${reasonOf(ctx.signal!)})`;
      } else if (r.status !== "passed") {
        stop ??= `step "${name}" ${r.status === "error" ? "had an error" : "failed"}`;
      }
    }
    if (c !== ctx) ctx.detailed = c.detailed;
  }
  return stop;
}

/**
 * Runs an included flow as one step: its vars from `with` (evaluated here),
 * run parameters and its own defaults; its steps reported as
 * `<step> › <its step>`; its outputs become this step's captures.
 */
async function runInclude(
  step: Step,
  scope: Live,
  ctx: Context,
  walk: Walk,
  level: Level,
): Promise<string | undefined> {
  const { flow, file, with: given } = step.include!;
  const name = `${level.prefix}${step.name}`;
  const vars = new Map<string, unknown>();
  const inner: Live = { ...scope, vars, steps: new Map() };
  const inputs = secretInputs(flow);
  const fail = async (message: string) => {
    const r = skipped(step, message, round(performance.now() - walk.started));
    await record({ ...r, status: "error", failure_kind: "expression" }, level, walk, ctx);
    return `step "${name}" had an error`;
  };
  try {
    const values = new Map(given.map((v) => [v.name, render(v.value, scope)]));
    // A value given to a secret-named var is a secret, as a data column of that name is.
    for (const [n, value] of values) if (isSecretName(n)) secretLeaves(value, ctx.secret);
    for (const v of flow.vars) {
      vars.set(
        v.name,
        values.has(v.name) ? values.get(v.name) : ctx.params.get(v.name) ?? render(v.value, inner),
      );
    }
    for (const [n, value] of ctx.params) if (!vars.has(n)) vars.set(n, value);
    registerInputs(inputs, inner, ctx);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return await fail(
      `The vars of the included flow ${file} could not be evaluated: ${error.message}`,
    );
  }
  const stop = await runSteps(flow.steps, inner, ctx, walk, inputs, {
    prefix: `${name} › `,
    file,
  });
  // After a failure the outputs that can be evaluated are kept, for cleanup steps to use.
  const outputs = new Map<string, unknown>();
  scope.steps.set(step.name, outputs);
  for (const o of flow.outputs ?? []) {
    try {
      outputs.set(o.name, output(o, inner, ctx));
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      if (!stop) {
        return await fail(`The outputs of ${file} could not be evaluated: ${error.message}`);
      }
    }
  }
  return stop;
}

/** An output's value; secret when its name looks secret. */
function output(o: VarDef, scope: Scope, ctx: Context): unknown {
  const value = render(o.value, scope);
  if (isSecretCaptureName(o.name)) secretLeaves(value, ctx.secret);
  return value;
}

/**
 * The steps a step reports as: itself, or for an include the steps of the
 * included flow (nested includes expanded), named and placed for reporting.
 */
function leaves(step: Step, level: Level): (Level & { step: Step })[] {
  if (!step.include) return [{ ...level, step }];
  const inner = { prefix: `${level.prefix}${step.name} › `, file: step.include.file };
  return step.include.flow.steps.flatMap((s) => leaves(s, inner));
}

/**
 * The first condition of a step's `if` that does not hold, as the reason it
 * is skipped; an expression with no value is an error of the step.
 */
function unmetCondition(
  step: Step,
  scope: Scope,
  ctx: Context,
): { kind: "condition" | "expression"; message: string } | undefined {
  for (const c of step.when ?? []) {
    let actual: unknown;
    let expected: unknown;
    let problem: string | undefined;
    try {
      actual = render(c.value, scope);
      expected = render(c.expected, scope);
      problem = applyOperator(c.operator, actual, expected, ctx.redactor);
    } catch (error) {
      if (error instanceof ExpressionError) return { kind: "expression", message: error.message };
      // A condition that cannot be evaluated is the step's error, not the run's end.
      const message = internalError(`checking its condition ${c.source}`, error);
      return { kind: "expression", message: ctx.redactor.redact(`${message}.`) };
    }
    if (problem?.startsWith(UNDECIDED)) {
      // Not "does not hold": a value that makes the match too slow must not skip the step.
      return {
        kind: "expression",
        message: ctx.redactor.redact(
          `Its condition ${c.source} ${c.operator} ${
            show(expected, 80, ctx.redactor)
          } could not be told: ${problem}.`,
        ),
      };
    }
    if (problem !== undefined) {
      return {
        kind: "condition",
        message: `Skipped: its condition ${c.source} ${c.operator} ${
          show(expected, 80, ctx.redactor)
        } does not hold (${problem}).`,
      };
    }
  }
  return undefined;
}

/**
 * A flow's status from its steps: the status of the step that stopped it;
 * `skipped` when it was interrupted or never ran; `error` when its vars could
 * not be evaluated (every step skipped, none interrupted).
 */
function flowStatus(steps: readonly StepResult[]): FlowResult["status"] {
  const stopper = steps.find((s) => s.status === "failed" || s.status === "error");
  if (stopper) return stopper.status;
  if (steps.some((s) => s.failure_kind === "interrupted")) return "skipped";
  // Steps skipped by their conditions are a flow that ran as written.
  return steps.every((s) => s.status === "skipped" && s.failure_kind !== "condition")
    ? "error"
    : "passed";
}

/**
 * A data-driven flow becomes one flow per row, named by the row, its vars
 * taking the row's values; the rows then run like any flows, in parallel
 * under `jobs`.
 */
function expandRows(flows: readonly (Flow | DeferredFlow)[]): (Flow | DeferredFlow)[] {
  return flows.flatMap((flow) =>
    !isDeferred(flow) && flow.rows
      ? flow.rows.map((row) => ({
        ...flow,
        name: `${flow.name} [${row.name}]`,
        rows: undefined,
        dataFile: undefined,
        vars: flow.vars.map((v) =>
          Object.hasOwn(row.values, v.name)
            ? { name: v.name, value: { kind: "const" as const, value: row.values[v.name] } }
            : v
        ),
      }))
      : [flow]
  );
}

/** Prepares the parsed flows; a deferred one is prepared when it is parsed again. */
async function prepare(
  all: readonly (Flow | DeferredFlow)[],
  signal?: AbortSignal,
): Promise<void> {
  await prepareParsed(all.filter((f): f is Flow => !isDeferred(f)), signal);
}

/** A deferred flow parsed again, with what it needs loaded. */
async function parsed(flow: Flow | DeferredFlow): Promise<Flow> {
  if (!isDeferred(flow)) return flow;
  const loaded = await flow.load();
  await prepareParsed([loaded]);
  return loaded;
}

async function prepareParsed(all: readonly Flow[], signal?: AbortSignal): Promise<void> {
  await prepareSchemas(all, signal);
  await prepareXPath(all);
  await prepareRegex(all);
}

/** A flow that was never started: every step skipped with the reason. */
function notRun(flow: Flow, reason: string, kind: StepResult["failure_kind"]): FlowResult {
  return {
    file: flow.file,
    name: flow.name,
    status: "skipped",
    started_at: new Date().toISOString(),
    duration_ms: 0,
    steps: flow.steps.flatMap((step) =>
      leaves(step, { prefix: "" }).map((leaf) => ({
        ...skipped(leaf.step, reason),
        name: `${leaf.prefix}${leaf.step.name}`,
        ...(leaf.file ? { file: leaf.file } : {}),
        failure_kind: kind,
      }))
    ),
  };
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
  const flows: (Flow | DeferredFlow | undefined)[] = expandRows(given);
  // Data columns named like secrets are secrets, as vars of those names from a vars file are
  // (setup and teardown flows' rows too: they run with them).
  const rowSecrets: string[] = [];
  secretRowValues(
    [...options.setup ?? [], ...given, ...options.teardown ?? []]
      .filter((f): f is Flow => !isDeferred(f)),
    new Set(options.secrets ?? []),
    (value) => void rowSecrets.push(value),
  );
  // Already done by loadFlows; flows built another way get their schemas compiled here.
  // (In a helper, so no variable of this async function keeps the whole list alive.)
  await prepare([...options.setup ?? [], ...given, ...options.teardown ?? []], options.signal);
  // The caller handed the flows over: its list is emptied (a variable of a suspended caller
  // may still point at it), and each flow is dropped here once it has run.
  if (options.release) (given as unknown[]).length = 0;
  const ctx = context(options);
  for (const value of rowSecrets) ctx.secret(value);
  try {
    return await runAll(flows, options, ctx);
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
  // Setup flows run first, one after the other; their outputs are read-only for the rest.
  const setupOutputs = new Map<string, unknown>();
  const setupResults: FlowResult[] = [];
  let setupFailed: string | undefined;
  for (const flow of options.setup ?? []) {
    if (setupFailed !== undefined || ctx.signal?.aborted) {
      setupResults.push(
        notRun(flow, `Not run: ${setupFailed ?? "the run was interrupted"}.`, "skipped"),
      );
      await ctx.reporter.onFlowEnd?.(setupResults.at(-1)!);
      continue;
    }
    const outputs = new Map<string, unknown>();
    const r = await runOne(flow, ctx, undefined, outputs);
    setupResults.push(r);
    if (r.status !== "passed" || outputs.has("\0failed")) {
      setupFailed = `setup flow "${flow.name}" did not pass${
        outputs.has("\0failed") ? ` (its outputs: ${outputs.get("\0failed")})` : ""
      }`;
    } else for (const [k, v] of outputs) setupOutputs.set(k, v);
  }
  const results = new Array<FlowResult>(flows.length);
  let next = 0;
  let failedFlow: string | undefined;
  // Workers take the next flow in order, so with --jobs 1 the run is strictly sequential.
  const worker = async () => {
    while (next < flows.length) {
      const index = next++;
      // A flow held as its bytes is parsed now, in turn: flows wait for their turn as bytes.
      const flow = await parsed(flows[index]!);
      // Each flow (its steps, templates, compiled paths) is garbage once it has run.
      if (options.release) flows[index] = undefined;
      if (setupFailed !== undefined) {
        results[index] = notRun(flow, `Not run: ${setupFailed}.`, "skipped");
      } else if (ctx.signal?.aborted) {
        results[index] = notRun(
          flow,
          `Not run: the run was interrupted (${reasonOf(ctx.signal)}).`,
          "interrupted",
        );
      } else if (failedFlow !== undefined) {
        results[index] = notRun(
          flow,
          `Not run: --fail-fast stopped the run after ${failedFlow} failed.`,
          "skipped",
        );
      } else {
        results[index] = await runOne(flow, ctx, setupOutputs);
        if (options.failFast && results[index].status !== "passed" && failedFlow === undefined) {
          failedFlow = flow.file;
        }
        continue;
      }
      await ctx.reporter.onFlowEnd?.(results[index]);
    }
  };
  const jobs = Math.max(
    1,
    Math.min(options.jobs ?? navigator.hardwareConcurrency ?? 1, flows.length),
  );
  await Promise.all(Array.from({ length: jobs }, worker));
  const teardown: FlowResult[] = [];
  for (const flow of options.teardown ?? []) {
    // Teardown runs whatever happened; after an interrupt, within the cleanup grace period.
    const c = ctx.signal?.aborted ? { ...ctx, signal: AbortSignal.timeout(CLEANUP_GRACE_MS) } : ctx;
    teardown.push(await runOne(flow, c, setupOutputs));
  }
  // Every event handled (and every result compacted) before the run's result is made.
  await ctx.settle?.();
  results.unshift(...setupResults);
  results.push(...teardown);
  const result: RunResult = {
    run_id: ctx.runId,
    runner_version: VERSION,
    started_at: startedAt,
    duration_ms: round(performance.now() - started),
    status: results.every((f) => f.status === "passed") ? "passed" : "failed",
    ...(ctx.signal?.aborted ? { interrupted: reasonOf(ctx.signal) } : {}),
    totals: totalsOf(results),
    flows: results,
  };
  await ctx.reporter.onRunEnd?.(result);
  return result;
}
