/**
 * What a run can be asked to do ({@linkcode RunOptions}), the default
 * timeout, and the run id every run has.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import type { Auth } from "../model/auth.ts";
import type { Reporter } from "../model/events.ts";
import type { FlowResult } from "../model/result.ts";
import type { ByteSpill } from "../model/spill.ts";
import type { Redactor } from "../secrets/mod.ts";
import type { Network } from "./context.ts";
import type { CoverageCollector } from "./coverage.ts";
import type { RunWorkers } from "./workers/plan.ts";

/**
 * Options of a run.
 *
 * @example
 * ```ts
 * import type { RunOptions } from "./options.ts";
 * const options: RunOptions = { runId: "r", jobs: 1, failFast: true };
 * if (options.jobs !== 1) throw new Error();
 * ```
 */
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
  /**
   * Flows run at once (default: the number of CPUs), on all threads together;
   * steps inside a flow stay sequential.
   */
  jobs?: number;
  /**
   * Spread the flows over worker threads (see `workers/plan.ts`), each
   * running its share of `jobs`; reports, events and secrets are the same as
   * on one thread. Only for flows loaded from files (`loadFlows`): a worker
   * gets each flow as its checked JSON, or loads it again from its file
   * (from `source`, when given) when JSON cannot hold it.
   */
  workers?: RunWorkers;
  /**
   * `--auth-file`: the auth of every step whose flow (or step) has none of its
   * own. Internal (loaded by the CLI as a flow's is): not part of the stable API.
   * @ignore
   */
  auth?: Auth;
  /** After the first flow that does not pass, start no new flows; the rest are reported skipped. */
  failFast?: boolean;
  /**
   * Re-run a flow that did not pass up to this many times (default 0; at
   * most `MAX_FLOW_RETRIES`), from its first step, after the failed run's
   * cleanup steps; a flow's own `retries` overrides it. Setup and teardown
   * flows are re-run only by their own `retries`. See `rerun.ts`.
   */
  retries?: number;
  /**
   * Interrupts the run: no new requests are sent, requests in flight are
   * abandoned, and unfinished steps are reported skipped as `interrupted`.
   * Abort it with the signal's name as reason (`controller.abort("SIGINT")`).
   */
  signal?: AbortSignal;
  /**
   * The run's secrets. Every result and event the run reports has been
   * masked by it (events: unless {@linkcode RunOptions.rawEvents}), the
   * returned result at the end, with every secret the run met, and every
   * value shortened for a message was masked first.
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
   * Shows a person a line while the run goes: where to approve an OAuth2
   * device (`device_code` grant), with the user code. The values it quotes
   * (the token URL, the verification URL, the user code) are masked by the
   * run's secrets as values, its words never; the CLI masks what it writes
   * again. Default: standard error.
   */
  notice?: (line: string) => void;
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
   * Whether a flow's result is left out of the returned result once the
   * reporter has it (`--repeat` folds iterations into its summary,
   * `lib/report/repeat_fold.ts`): a run of many iterations keeps none of
   * theirs. Asked once per flow run (of those between setup and teardown
   * that run on this thread), in the order they end.
   */
  unlisted?: (result: FlowResult) => boolean;
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
  /**
   * Notes every response (method, URL path, status) and the documents of the
   * `openapi:` checks that run; the result then holds `openapi_coverage`.
   */
  coverage?: CoverageCollector;
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
   * The caller masks each output it makes as it writes it, with every secret
   * known then (the CLI: its console, each report and the log, see
   * `lib/report/flow_masks.ts`), so events keep raw values and the run masks
   * nothing on their way: no step result is masked as it ends, no flow as
   * it ends, to be masked again by every output. What the run itself keeps
   * is still masked: with `compact`, a flow's kept steps when they are
   * compacted (they may be spilled to disk); and the returned result, at the
   * end. Default: every event is masked too, as {@linkcode RunOptions.redactor} says.
   */
  rawEvents?: boolean;
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
 * import { DEFAULT_TIMEOUT_MS } from "./options.ts";
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
 * import { newRunId } from "./options.ts";
 * if (!/^\d{8}-\d{6}-[0-9a-f]{6}$/.test(newRunId(new Date()))) throw new Error();
 * ```
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
