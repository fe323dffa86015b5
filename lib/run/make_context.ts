/**
 * A run's {@linkcode Context} from its options: the reporter as the run
 * calls it (compacting, queued), the secrets it starts with, the
 * environment read through the redactor, and the defaults made concrete.
 *
 * @module
 */
import { Deadlines } from "../http/deadlines.ts";
import { TokenCache } from "../http/token_cache.ts";
import type { Reporter } from "../model/events.ts";
import { compactFlow, spillSteps } from "../model/compact.ts";
import type { ByteSpill } from "../model/spill.ts";
import { isSecretName, Redactor } from "../secrets/mod.ts";
import type { Context } from "./context.ts";
import { maskFlow } from "./mask_result.ts";
import { DEFAULT_TIMEOUT_MS, newRunId, type RunOptions } from "./options.ts";
import { type QueuedReporter, queueReporter } from "./queued.ts";

/**
 * The context every level of a run shares. {@linkcode Context.deadlines}
 * must be closed when the run ends.
 *
 * @example
 * ```ts
 * import { makeContext } from "./make_context.ts";
 * const ctx = makeContext({ params: new Map([["api_token", "t0k3n"]]), runId: "r1" });
 * ctx.deadlines?.close();
 * if (ctx.runId !== "r1" || ctx.timeoutMs !== 30_000) throw new Error();
 * if (ctx.redactor.redact("t0k3n") === "t0k3n") throw new Error("a secret-named parameter is masked");
 * ```
 */
export function makeContext(options: RunOptions): Context {
  const redactor = options.redactor ?? new Redactor();
  const { reporter, queued } = reporterOf(options, redactor);
  const runId = options.runId ?? newRunId();
  // The run id is written everywhere and is no secret, even inside one (`pw-${RUN_ID}`).
  redactor.addPublic(runId);
  const secret = (value: string, shown?: readonly string[]) => {
    redactor.add(value, shown);
    options.onSecret?.(value);
  };
  const named = new Set(options.secrets ?? []);
  const isSecret = (name: string) => named.has(name) || isSecretName(name);
  const params = options.params ?? new Map();
  for (const [name, value] of params) if (isSecret(name)) secret(value);
  return {
    env: secretEnv(options.env ?? (() => undefined), isSecret, secret),
    params,
    runId,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes,
    bodyMemoryBytes: options.bodyMemoryBytes,
    reporter: queued ?? reporter,
    settle: queued?.drained,
    signal: options.signal,
    redactor,
    rawEvents: options.rawEvents,
    detailed: 0,
    secret,
    trace: options.trace ?? false,
    cookieJar: options.cookieJar,
    verbose: options.verbose ?? 0,
    secretVariables: options.secretVariables,
    network: options.network,
    coverage: options.coverage,
    deadlines: new Deadlines(),
    auth: options.auth,
    tokens: new TokenCache(),
    ...(options.notice ? { notice: options.notice } : {}),
  };
}

/** The reporter the run calls: compacting results after each flow, queued when it may overlap. */
function reporterOf(
  options: RunOptions,
  redactor: Redactor,
): { reporter: Reporter; queued?: QueuedReporter } {
  // With raw events a kept flow is raw until it is masked here: the spill is a file too.
  const mask = options.rawEvents ? redactor : undefined;
  const reporter = options.compact
    ? compacting(options.reporter ?? {}, options.spill, mask)
    : options.reporter ?? {};
  return { reporter, queued: options.overlapReporter ? queueReporter(reporter) : undefined };
}

/** The reporter, then the flow's result shrunk to what the end of the run needs (and masked). */
function compacting(
  reporter: Reporter,
  spill: ByteSpill | undefined,
  mask: Redactor | undefined,
): Reporter {
  return {
    ...reporter,
    async onFlowEnd(flow) {
      await reporter.onFlowEnd?.(flow);
      compactFlow(flow);
      if (!spill) return;
      // Only a flow with kept steps of its own has something to spill (the others share frozen
      // placeholders); the rest is masked at the end of the run.
      if (mask && !Object.isFrozen(flow.steps)) maskFlow(flow, mask);
      spillSteps(flow, spill);
    },
  };
}

/** Reads the environment, registering the value of each secret variable it reads. */
function secretEnv(
  readEnv: (name: string) => string | undefined,
  isSecret: (name: string) => boolean,
  secret: (value: string) => void,
): Context["env"] {
  // Whether each variable name is secret, tested once: requests read the same few names.
  const secretNames = new Map<string, boolean>();
  return (name) => {
    const value = readEnv(name);
    if (value === undefined) return value;
    let isSecretValue = secretNames.get(name);
    if (isSecretValue === undefined) secretNames.set(name, isSecretValue = isSecret(name));
    if (isSecretValue) secret(value);
    return value;
  };
}
