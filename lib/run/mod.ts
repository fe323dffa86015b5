/**
 * The run stage: takes loaded flows and {@linkcode RunOptions}, gives a
 * `RunResult` (`model/result.ts`) and, while it runs, the run events a
 * `Reporter` hears (`model/events.ts`).
 *
 * The runner, outermost level first:
 * - `flows.ts`: setup flows, the flows `jobs` at a time (`serial: true` ones
 *   last, alone; what these share, `schedule.ts`), teardown flows, the run
 *   result; with `workers`, the flows spread over worker threads
 *   (`workers/`: `plan.ts` how many, `pool.ts` main's side, `worker_main.ts`
 *   a worker's (`entry.ts` where it is, moved by the bundle), `worker_load.ts` a flow loaded again in a worker,
 *   `outbox.ts` what a worker sends back, `tokens.ts` one OAuth2 token for
 *   all, `env_channel.ts` the environment read through main, `coverage.ts`
 *   a worker's coverage notes);
 *   `prepare.ts` makes flows ready (data rows, compiled checks);
 *   `make_context.ts` turns the options (`options.ts`) into the
 *   {@linkcode Context} every level shares; `queued.ts` lets reporters run
 *   while requests are in flight.
 * - `rerun.ts`: a flow that does not pass re-run (`--retries`, `retries:`),
 *   each run by `flow.ts`'s `runAttempt`; flaky when a re-run passes.
 * - `flow.ts`: one flow run (scope, vars in `vars.ts`, result; a secret
 *   var made from a shown var or capture is registered with them,
 *   `shown.ts`);
 *   `steps.ts`: its step loop and includes, skipping what a stop or a
 *   condition (`condition.ts`) rules out (`skipped.ts`), each result
 *   recorded by `walk.ts`; `foreach.ts` runs a `foreach` step once per
 *   element of its list, each iteration a result of its own;
 *   `include_checks.ts` keeps the response an include step's own `assert`
 *   and `capture` read and checks it after its flow (`own_checks.ts`: whether it has any).
 * - `step.ts`: one step from a {@linkcode StepInput}: attempts, retries and
 *   polling (`poll.ts`), checks and captures; `step_result.ts` turns it into
 *   the step's result, purely.
 * - `attempt.ts`: one request as a straight line (work the request out,
 *   tell the reporter, send, evaluate `until`), its transport from
 *   `transport.ts`; `auth_steps.ts`: which `auth` block a step gets (step
 *   > flow > include > `--auth-file`), its handler, and each OAuth2 token
 *   request recorded as an `auth › oauth2 token` entry; `redirect_auth.ts`:
 *   a followed redirect's hops authorised anew at the step's origin, not elsewhere.
 *
 * `merge.ts` merges the JSON reports of shards, whose shape `report_shape.ts`
 * checks; `invalid_run.ts` is the result of a run whose flows did not load.
 *
 * No function here is over the size limits, so there are no exceptions.
 *
 * @example
 * ```ts
 * import { runFlows } from "./mod.ts";
 * const heard: string[] = [];
 * const result = await runFlows([], { runId: "r", reporter: { onRunEnd: () => void heard.push("end") } });
 * if (result.status !== "passed" || heard.join() !== "end") throw new Error();
 * ```
 *
 * @module
 */
export { type Attempt, attempt } from "./attempt.ts";
export {
  CLEANUP_GRACE_MS,
  type Context,
  type Network,
  type StepInput,
  type WithJar,
} from "./context.ts";
export { runFlow, runFlows } from "./flows.ts";
export { type InvalidRun, invalidRunResult } from "./invalid_run.ts";
export { makeContext } from "./make_context.ts";
export { mergeResults, parseJsonReport } from "./merge.ts";
export { DEFAULT_TIMEOUT_MS, newRunId, type RunOptions } from "./options.ts";
export { pause, type PollOptions, type PollOutcome, pollUntil } from "./poll.ts";
export { type QueuedReporter, queueReporter } from "./queued.ts";
export { runStep } from "./step.ts";
