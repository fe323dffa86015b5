/**
 * A flow worker's entry (`new Worker(…worker_main.ts)`, started by
 * `pool.ts`): it builds its run context from main's {@linkcode WorkerInit}
 * (the run id, the options, the setup outputs, the secrets known so far),
 * then runs each flow main hands it, independently, up to its slots at a
 * time: loaded again from its file (`worker_load.ts`), re-run as on one
 * thread (`rerun.ts`). What happens goes back to main through the
 * {@linkcode Outbox}; the environment is read through main
 * (`env_channel.ts`), OAuth2 tokens come from main's cache (`tokens.ts`).
 *
 * @module
 */
import type { Flow } from "../../model/flow.ts";
import type { FlowResult } from "../../model/result.ts";
import type { Context } from "../context.ts";
import { makeContext } from "../make_context.ts";
import { notStarted, runStarted } from "../schedule.ts";
import { askEnv } from "./env_channel.ts";
import type { FromWorker, ToWorker, WorkerInit } from "./messages.ts";
import { ForwardedCoverage } from "./coverage.ts";
import { Outbox } from "./outbox.ts";
import { SharedFailFast } from "./fail_fast.ts";
import { WorkerTokens } from "./tokens.ts";
import { fingerprint } from "./fingerprint.ts";
import { doneItem } from "./told_marks.ts";
import { WorkerLoader, WorkerLoadError } from "./worker_load.ts";

/** The worker's global scope, as this module uses it. */
const scope = globalThis as unknown as {
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
};

const post = (message: FromWorker) => scope.postMessage(message);

/** The worker's run, once main has said how. */
interface Running {
  init: WorkerInit;
  ctx: Context;
  loader: WorkerLoader;
  outbox: Outbox;
  tokens: WorkerTokens;
  controller: AbortController;
  /** `--fail-fast`'s first failure on any thread (`fail_fast.ts`). */
  readonly failedFlow: string | undefined;
  failFast: SharedFailFast | undefined;
  /** Flows main handed over ahead, waiting for a free slot. */
  queue: FlowMessage[];
  /** Flows running. */
  active: number;
}

/** A flow handed to the worker. */
type FlowMessage = Extract<ToWorker, { kind: "flow" }>;

/** Starts waiting flows while the worker has free slots. */
function start(r: Running): void {
  while (r.active < r.init.slots && r.queue.length > 0) {
    r.active++;
    void runFlow(r, r.queue.shift()!).finally(() => {
      r.active--;
      start(r);
    });
  }
}

let running: Running | undefined;

scope.onmessage = (event) => {
  try {
    receive(event.data);
  } catch (error) {
    post({ kind: "failed", message: String((error as Error)?.stack ?? error) });
  }
};

function receive(message: ToWorker): void {
  if (message.kind === "init") {
    running = begin(message.init);
    return;
  }
  const r = running!;
  switch (message.kind) {
    case "flow":
      r.queue.push(message);
      start(r);
      return;
    case "secret":
      r.ctx.redactor.add(message.value, message.shown);
      return;
    case "abort":
      r.controller.abort(message.reason);
      return;
    case "token":
      r.tokens.answer(message.id, message.token, message.error);
      return;
    case "token-fetch":
      void r.tokens.fetch(message.id, message.held);
  }
}

/** The worker's context: main's options, its reporter the outbox, its secrets told to main. */
function begin(init: WorkerInit): Running {
  const outbox = new Outbox(post);
  const controller = new AbortController();
  const asked = new Map<string, string | undefined>();
  const env = (name: string) => {
    if (!asked.has(name)) asked.set(name, askEnv(init.env, () => post({ kind: "env", name })));
    return asked.get(name);
  };
  // Each value told once: a token comes back with every request that sends it.
  const told = new Set<string>();
  const tell = (value: string, shown?: readonly string[]) => {
    if (told.has(value)) return;
    told.add(value);
    outbox.add({ kind: "secret", value, ...(shown ? { shown } : {}) });
  };
  const { setup: _, secrets: __, coverage: ___, failFast: ____, ...options } = init;
  const ctx = makeContext({
    ...options,
    env,
    secrets: init.secretNames,
    signal: controller.signal,
    reporter: outbox.reporter(init.hooks),
    onSecret: (value) => tell(value),
    // Written by main, through its redactor, or given to the library user's `notice`.
    notice: (line) => outbox.add({ kind: "notice", line }),
  });
  for (const [value, shown] of init.secrets) ctx.redactor.add(value, shown);
  // With its public parts: main masks what it writes as this worker would.
  ctx.secret = (value, shown) => {
    ctx.redactor.add(value, shown);
    tell(value, shown);
  };
  const tokens = new WorkerTokens(post);
  ctx.tokens = tokens;
  if (init.coverage) ctx.coverage = new ForwardedCoverage((item) => outbox.add(item));
  ctx.detailedShared = init.detailed;
  const loader = new WorkerLoader(init.load, { env, params: init.params }, ctx.redactor);
  const failFast = init.failFast && new SharedFailFast(init.failFast.buffer, init.failFast.thread);
  return {
    init,
    ctx,
    loader,
    outbox,
    tokens,
    controller,
    failFast,
    get failedFlow() {
      return failFast?.failedFlow;
    },
    queue: [],
    active: 0,
  };
}

/** One flow, from its file (or its checked JSON) to its result at main. */
async function runFlow(r: Running, message: FlowMessage): Promise<void> {
  const { index } = message;
  try {
    const flow = await loadChecked(r, message);
    if (typeof flow === "string") {
      r.outbox.add({ kind: "changed", index, why: flow });
      return;
    }
    const skipped = notStarted(flow, { failed: undefined }, r.ctx, r.failedFlow);
    const result: FlowResult = skipped ??
      await runStarted(flow, r.ctx, r.init.retries, r.init.setup, r);
    // Every thread knows at once: this worker's next flow, ready to start, is not started.
    if (!skipped && result.status !== "passed") r.failFast?.fail(flow.file);
    r.outbox.add(doneItem(index, result, r.ctx.redactor));
  } catch (error) {
    // This flow ends as an error; the worker and its other flows go on.
    const why = String((error as Error)?.stack ?? error);
    try {
      r.outbox.add({ kind: "lost", index, why });
    } catch {
      post({ kind: "failed", message: why });
    }
  }
}

/**
 * The flow main handed over, or why it is not the flow main checked: a file
 * it reads besides its own changed on disk since (main then runs it).
 */
async function loadChecked(
  r: Running,
  { file, part, json, source, print }: FlowMessage,
): Promise<Flow | string> {
  if (json) return await r.loader.fromJson(json);
  if (print === undefined) return await r.loader.flow(file, part, source);
  try {
    const flow = await r.loader.flow(file, part, source);
    return fingerprint(flow) === print ? flow : "a file it reads changed since it was checked";
  } catch (error) {
    if (error instanceof WorkerLoadError) return error.message;
    throw error;
  }
}
