/**
 * The main thread's side of running flows on several threads (`--workers
 * N`). Main has loaded, selected and sharded the flows and run the setup
 * flows; the pool starts N−1 workers and hands each thread, main itself
 * included, the next flow by its place in the run whenever it has a free
 * slot (its share of `--jobs`), so a long flow never leaves a core idle
 * while others wait. Secrets and notices a worker sends are handled as they
 * come (registered with the run's redactor and passed on to the other
 * workers); reporter events, coverage notes and each flow's result in order,
 * so main's reporters get them exactly as on one thread. Main also answers
 * the workers' questions (the environment, an OAuth2 token: `tokens.ts`),
 * shares one budget of detailed failures and `--fail-fast`'s first failure
 * with them in memory (`fail_fast.ts`), tells them of a signal, and ends
 * them when the last flow is in. A worker that fails ends only the flows it
 * held, as errors (`lost.ts`); the other threads run the rest.
 *
 * @module
 */
import { reasonOf } from "../../http/request_error.ts";
import { REPORTER_HOOKS } from "../../model/events.ts";
import type { DeferredFlow, Flow } from "../../model/flow.ts";
import type { FlowResult } from "../../model/result.ts";
import type { Context } from "../context.ts";
import type { RunOptions } from "../options.ts";
import { parsed } from "../prepare.ts";
import {
  type FailFast,
  notStarted,
  reportNotStarted,
  runStarted,
  type Setup,
} from "../schedule.ts";
import { answerEnv, envBuffer } from "./env_channel.ts";
import { SharedFailFast, shareState } from "./fail_fast.ts";
import { flowMessage, partsOf } from "./handover.ts";
import { lostResult } from "./lost.ts";
import { workerEntry } from "./entry.ts";
import type { FromWorker, ToWorker, WorkerInit, WorkerItem } from "./messages.ts";
import { type RunWorkers, slotsOf } from "./plan.ts";
import { TokenBroker } from "./tokens.ts";
import { markedResult } from "./told_marks.ts";

/**
 * What the pool runs: the run's flows (those at `order`, whose results go to
 * `results` at the same places) and what the run shares.
 *
 * @example
 * ```ts
 * import type { PoolInput } from "./pool.ts";
 * const input = { order: [0, 1], count: 2 } as Partial<PoolInput>;
 * if (input.count !== 2) throw new Error();
 * ```
 */
export interface PoolInput {
  flows: (Flow | DeferredFlow | undefined)[];
  order: readonly number[];
  results: FlowResult[];
  options: RunOptions;
  workerOptions: RunWorkers;
  ctx: Context;
  setup: Setup;
  state: FailFast;
  /** How many threads run flows, the main thread one of them. */
  count: number;
  /** Flows at once, in all workers together (`--jobs`). */
  jobs: number;
  /** Every secret main's redactor holds when the workers start (the caller's, setup flows', data rows'). */
  known: [string, readonly string[] | undefined][];
}

/** A thread that runs flows, as main sees it: a worker, or main itself (no `worker`). */
interface Member {
  readonly n: number;
  readonly slots: number;
  running: number;
  readonly worker?: Worker;
  readonly env?: SharedArrayBuffer;
  /** The worker failed: it gets no more flows. */
  dead?: boolean;
  post(message: ToWorker): void;
}

/**
 * Runs the flows at `order` on `count` threads (main and `count` − 1
 * workers); resolves when every one has a result (those never started
 * included, in the order given).
 *
 * @example
 * ```ts ignore
 * await runPool({ flows, order, results, options, workerOptions, ctx, setup, state, count: 2, jobs: 4, known: [] });
 * ```
 */
export async function runPool(input: PoolInput): Promise<void> {
  const pool = new Pool(input);
  try {
    await pool.run();
  } finally {
    pool.close();
  }
  await reportNotStarted(input, pool.left());
}

class Pool {
  readonly #input: PoolInput;
  readonly #members: Member[];
  readonly #parts: Int32Array;
  readonly #tokens: TokenBroker;
  /** The run's `ctx.secret` before the pool told workers of main's own secrets too. */
  readonly #secretHere: Context["secret"];
  /** The run's count of detailed failures, shared by every thread (see `DETAILED_FAILURES`). */
  readonly #detailed = new Int32Array(new SharedArrayBuffer(4));
  /** Secrets the workers have been told of. */
  readonly #told = new Set<string>();
  /** The flows in the workers' hands (main runs one a worker did not load as checked). */
  readonly #held = new Map<number, { member: Member; flow: Flow | DeferredFlow }>();
  /** `--fail-fast`'s first failure, shared by every thread; what gives `state` back after. */
  readonly #failFast: { flag: SharedFailFast; unshare: () => void } | undefined;
  #next = 0;
  #chain: Promise<void> = Promise.resolve();
  #finished = Promise.withResolvers<void>();
  #onAbort = () => this.#abort();

  constructor(input: PoolInput) {
    this.#input = input;
    const { ctx } = input;
    this.#parts = partsOf(input.flows);
    const flag = input.options.failFast ? SharedFailFast.create(input.count) : undefined;
    this.#failFast = flag && { flag, unshare: shareState(input.state, flag) };
    // Main's flows and the workers' share one cache: one fetch per token for the run.
    this.#tokens = new TokenBroker(ctx.tokens);
    this.#secretHere = ctx.secret;
    // A secret main's own flows meet is told to every worker.
    ctx.secret = (value, shown) => this.#secret(undefined, value, shown);
    const [own, ...others] = slotsOf(Math.max(input.jobs, input.count), input.count);
    // One budget of detailed failures for every thread, spent in the order steps fail, as on one.
    this.#detailed[0] = ctx.detailed;
    ctx.detailedShared = this.#detailed;
    this.#members = [
      { n: 0, slots: own, running: 0, post: () => {} },
      ...others.map((s, i) => this.#start(i + 1, s)),
    ];
    ctx.signal?.addEventListener("abort", this.#onAbort);
  }

  /** Hands out the flows and waits for every result. */
  async run(): Promise<void> {
    if (this.#input.ctx.signal?.aborted) this.#abort();
    for (const member of this.#members) this.#dispatch(member);
    this.#settleIfDone();
    await this.#finished.promise;
    await this.#chain;
  }

  /** The places of the flows never handed out. */
  left(): number[] {
    return this.#input.order.slice(this.#next);
  }

  /** Ends every worker. */
  close(): void {
    this.#input.ctx.signal?.removeEventListener("abort", this.#onAbort);
    this.#failFast?.unshare();
    this.#input.ctx.secret = this.#secretHere;
    // Serial and teardown flows go on counting on this thread alone.
    this.#input.ctx.detailed = Atomics.load(this.#detailed, 0);
    delete this.#input.ctx.detailedShared;
    for (const member of this.#members) member.worker?.terminate();
  }

  #start(n: number, slots: number): Member {
    const worker = new Worker(workerEntry(), { type: "module" });
    const member: Member = {
      n,
      worker,
      slots,
      env: envBuffer(),
      running: 0,
      post: (message) => worker.postMessage(message),
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.#receive(member, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#died(member, event.message);
    };
    member.post({ kind: "init", init: this.#init(member) });
    return member;
  }

  #init(member: Member): WorkerInit {
    const { options, ctx, setup, known, workerOptions } = this.#input;
    return {
      runId: ctx.runId,
      slots: member.slots,
      hooks: REPORTER_HOOKS.filter((hook) => typeof ctx.reporter[hook] === "function"),
      params: ctx.params,
      secrets: known,
      setup: setup.outputs,
      detailed: this.#detailed,
      ...(this.#failFast ? { failFast: this.#failFast.flag.forThread(member.n) } : {}),
      env: member.env!,
      load: {
        ...(workerOptions.tags === undefined ? {} : { tags: workerOptions.tags }),
        ...(workerOptions.allowCommands ? { allowCommands: true } : {}),
        checkSetup: workerOptions.checkSetup,
        setupOutputs: (options.setup ?? []).flatMap((f) => (f.outputs ?? []).map((o) => o.name)),
      },
      timeoutMs: ctx.timeoutMs,
      maxBodyBytes: ctx.maxBodyBytes,
      bodyMemoryBytes: ctx.bodyMemoryBytes,
      retries: options.retries,
      trace: ctx.trace,
      cookieJar: ctx.cookieJar,
      verbose: ctx.verbose,
      secretVariables: ctx.secretVariables,
      secretNames: options.secrets,
      network: ctx.network,
      auth: ctx.auth,
      // Raw events stay raw: main masks each output as it writes it (`RunOptions.rawEvents`).
      ...(ctx.rawEvents ? { rawEvents: true } : {}),
      ...(ctx.coverage ? { coverage: true } : {}),
    };
  }

  /**
   * Hands `member` flows until its slots are full, and a worker as many
   * more, waiting there for a free slot: a worker's next flow is at hand
   * when one ends, however busy main is (with one share of flows per
   * worker, main's own flows and every report, it answers late), or workers
   * would idle. Memory stays bounded: a worker starts no more than its slots.
   */
  #dispatch(member: Member): void {
    const { order, flows, options, ctx, state } = this.#input;
    if (member.dead) return;
    const most = member.worker ? 2 * member.slots : member.slots;
    while (member.running < most && this.#next < order.length) {
      if (ctx.signal?.aborted || state.failedFlow !== undefined) return;
      const index = order[this.#next++];
      const flow = flows[index]!;
      if (options.release) flows[index] = undefined;
      member.running++;
      if (member.worker) this.#send(member, index, flow);
      else void this.#runHere(member, index, flow);
    }
  }

  /** A flow to a worker, kept until its result comes (see `handover.ts`). */
  #send(member: Member, index: number, flow: Flow | DeferredFlow): void {
    this.#held.set(index, { member, flow });
    member.post(flowMessage(flow, index, this.#parts[index], this.#input.workerOptions.source));
  }

  /**
   * A flow of main's own share, run here as on one thread: main's loading
   * is done and its reporting is light, so it has a core's worth of time to
   * spare, and one worker fewer is one runtime fewer to compile and warm up.
   */
  async #runHere(member: Member, index: number, given: Flow | DeferredFlow): Promise<void> {
    const { ctx, setup, state, options } = this.#input;
    try {
      const flow = await parsed(given);
      const skipped = notStarted(flow, setup, ctx, state.failedFlow);
      if (skipped) await ctx.reporter.onFlowEnd?.(skipped);
      const result = skipped ??
        await runStarted(flow, ctx, options.retries, setup.outputs, state);
      // Known to every thread at once (`fail_fast.ts`), not when main's reporters reach it.
      if (!skipped && options.failFast && result.status !== "passed") {
        state.failedFlow ??= flow.file;
      }
      this.#chain = this.#chain.then(() => this.#done(member, index, result, true))
        .catch((error) => this.#fail(error));
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * A flow a worker did not load as main checked it (a file it reads changed
   * on disk since), run here as checked; the worker's slot stays taken
   * until it ends, as if the worker ran it.
   */
  #runChecked(member: Member, index: number): void {
    const flow = this.#held.get(index)!.flow;
    this.#held.delete(index);
    void this.#runHere(member, index, flow);
  }

  #receive(member: Member, message: FromWorker): void {
    switch (message.kind) {
      case "env":
        // Answered at once, outside the chain: the worker waits for it.
        answerEnv(member.env!, this.#input.ctx.env(message.name));
        return;
      case "batch":
        // Secrets and notices at once, not when main's lagging reporters reach them: a flow may
        // meet the value now; a person waits for the notice (by default on stderr, as one thread).
        for (const item of message.items) {
          if (item.kind === "secret") this.#secret(member, item.value, item.shown);
          else if (item.kind === "notice") (this.#input.ctx.notice ?? console.error)(item.line);
        }
        this.#chain = this.#chain.then(() => this.#batch(member, message.items))
          .catch((error) => this.#fail(error));
        return;
      case "token-get":
        this.#tokens.get(member, message.id, message.key);
        return;
      case "token-fetched":
        this.#tokens.fetched(member, message.id, message.token, message.error);
        return;
      case "token-reject":
        this.#tokens.reject(message.key, message.token);
        return;
      case "failed":
        this.#died(member, message.message);
    }
  }

  async #batch(member: Member, items: readonly WorkerItem[]): Promise<void> {
    const { ctx } = this.#input;
    for (const item of items) {
      if (item.kind === "secret" || item.kind === "notice") continue; // Done as it came.
      else if (item.kind === "coverage") ctx.coverage?.record(item.method, item.url, item.status);
      else if (item.kind === "coverage-check") ctx.coverage?.addCheck(item);
      else if (item.kind === "changed") this.#runChecked(member, item.index);
      else if (item.kind === "lost") await this.#lose(member, item.index, item.why);
      else if (item.kind === "event") {
        const hook = ctx.reporter[item.hook] as ((...a: unknown[]) => unknown) | undefined;
        await hook?.apply(ctx.reporter, item.args);
      } else await this.#done(member, item.index, markedResult(item));
    }
  }

  /**
   * A secret a flow met (on worker `from`, or here): main's redactor has it,
   * then every other worker.
   */
  #secret(from: Member | undefined, value: string, shown: readonly string[] | undefined): void {
    this.#secretHere(value, shown);
    if (this.#told.has(value)) return;
    this.#told.add(value);
    for (const member of this.#members) {
      if (member !== from) member.post({ kind: "secret", value, shown });
    }
  }

  /** A flow's result; `reported` when main's reporters have heard its end (main's own flows). */
  async #done(member: Member, index: number, result: FlowResult, reported = false): Promise<void> {
    const { results, options, state, ctx } = this.#input;
    // Once: a dead worker's flow may be lost before its last words are read.
    if (results[index] !== undefined) return;
    member.running--;
    this.#held.delete(index);
    results[index] = result;
    if (options.failFast && result.status !== "passed") state.failedFlow ??= result.file;
    this.#dispatch(member);
    if (!reported) await ctx.reporter.onFlowEnd?.(result);
    this.#settleIfDone();
  }

  /**
   * Worker `member` failed (`why`): ended, it gets no more flows; each flow it held ends as lost,
   * after what it sent before; the others run the rest; a token it fetched is fetched again.
   */
  #died(member: Member, why: string): void {
    if (member.dead) return;
    member.dead = true;
    member.worker!.terminate();
    this.#tokens.lost(member);
    this.#input.ctx.notice?.(
      `flowrun: a worker thread failed (a flowrun bug: please report it with this message); ` +
        `the flows it held end as errors, the others go on: ${why}`,
    );
    this.#chain = this.#chain.then(async () => {
      const held = [...this.#held].filter(([, h]) => h.member === member);
      for (const [index] of held) await this.#lose(member, index, why);
    }).catch((error) => this.#fail(error));
  }

  /** The flow at `index`, which worker `member` held, lost for `why`. */
  async #lose(member: Member, index: number, why: string): Promise<void> {
    const held = this.#held.get(index);
    if (held) await this.#done(member, index, lostResult(await parsed(held.flow), why));
  }

  #settleIfDone(): void {
    if (this.#members.some((m) => m.running > 0)) return;
    const { order, ctx, state } = this.#input;
    const stopped = ctx.signal?.aborted || state.failedFlow !== undefined;
    if (stopped || this.#next >= order.length) this.#finished.resolve();
  }

  #abort(): void {
    const reason = reasonOf(this.#input.ctx.signal!);
    for (const member of this.#members) member.post({ kind: "abort", reason: String(reason) });
    this.#settleIfDone();
  }

  #fail(error: unknown): void {
    this.#finished.reject(error);
  }
}
