/**
 * What the main thread and a flow worker say to each other: every message is
 * structured-cloned data, named by its `kind`. Main starts a worker with
 * {@linkcode WorkerInit}, hands it flows by their place in the run, answers
 * its questions (a variable of the environment, an OAuth2 token) and tells it
 * what the run learnt (a secret another worker met, `--fail-fast`, a signal).
 * A worker sends back what happened, in order, in batches: secrets, reporter
 * events, each flow's result.
 *
 * @module
 */
import type { Auth } from "../../model/auth.ts";
import type { ReporterHook } from "../../model/events.ts";
import type { FlowResult } from "../../model/result.ts";
import type { Told } from "../../model/told.ts";
import type { Network } from "../context.ts";

/**
 * How a worker runs its flows: the run's options that are data, the setup
 * flows' outputs, the secrets known so far, how many flows it runs at once.
 *
 * @example
 * ```ts
 * import type { WorkerInit } from "./messages.ts";
 * const init: WorkerInit = {
 *   runId: "r", slots: 2, hooks: ["onStepEnd"], params: new Map(), secrets: [], setup: new Map(),
 *   detailed: new Int32Array(new SharedArrayBuffer(4)), env: new SharedArrayBuffer(16), load: { checkSetup: false, setupOutputs: [] },
 * };
 * if (init.slots !== 2) throw new Error();
 * ```
 */
export interface WorkerInit {
  runId: string;
  /** Flows this worker runs at once: its share of `--jobs`. */
  slots: number;
  /** The reporter hooks main has: only their events are sent (never `onFlowEnd`, see `done`). */
  hooks: ReporterHook[];
  params: ReadonlyMap<string, string>;
  /** Secrets main knows when the worker starts (values and their public parts). */
  secrets: [string, readonly string[] | undefined][];
  /** The setup flows' outputs (`${setup.NAME}`). */
  setup: ReadonlyMap<string, unknown>;
  /** The run's count of detailed failures, shared by every thread (see `DETAILED_FAILURES`). */
  detailed: Int32Array;
  /** Where main answers the worker's questions to the environment (see `env_channel.ts`). */
  env: SharedArrayBuffer;
  /** How the worker loads a flow file again, as main loaded it. */
  load: WorkerLoad;
  timeoutMs?: number;
  maxBodyBytes?: number;
  bodyMemoryBytes?: number;
  retries?: number;
  trace?: boolean;
  cookieJar?: boolean;
  verbose?: number;
  secretVariables?: ReadonlyMap<string, string>;
  secretNames?: readonly string[];
  network?: Network;
  auth?: Auth;
  /** Events keep raw values: main masks what it writes (see `RunOptions`). */
  rawEvents?: boolean;
  /** `--fail-fast`: the run's first failure, shared by every thread, and this worker's number. */
  failFast?: { buffer: SharedArrayBuffer; thread: number };
  /** The run reports OpenAPI coverage: the worker notes responses for it. */
  coverage?: boolean;
}

/**
 * What loading a flow file again needs besides its path, the run parameters
 * and the environment.
 *
 * @example
 * ```ts
 * import type { WorkerLoad } from "./messages.ts";
 * const load: WorkerLoad = { tags: "smoke", checkSetup: true, setupOutputs: ["token"] };
 * if (!load.checkSetup) throw new Error();
 * ```
 */
export interface WorkerLoad {
  /** `--tag`: steps are selected by it as when main loaded the file. */
  tags?: string;
  /** `--allow-commands`, as main loaded the file with it. */
  allowCommands?: boolean;
  /** Whether `${setup.NAME}` was checked against the setup flows' outputs. */
  checkSetup: boolean;
  /** The names the setup flows hand out. */
  setupOutputs: string[];
}

/**
 * A token as it travels between threads: its lifetime left instead of a
 * time of the sending thread's clock.
 *
 * @example
 * ```ts
 * import type { WireToken } from "./messages.ts";
 * const token: WireToken = { accessToken: "t", renewInMs: 30_000 };
 * if (token.renewInMs !== 30_000) throw new Error();
 * ```
 */
export interface WireToken {
  accessToken: string;
  renewInMs?: number;
  refreshToken?: string;
}

/**
 * An error sent between threads: its message, and whether it was an `AuthError`.
 *
 * @example
 * ```ts
 * import type { WireError } from "./messages.ts";
 * const e: WireError = { message: "The OAuth2 token request failed.", auth: true };
 * if (!e.auth) throw new Error();
 * ```
 */
export interface WireError {
  message: string;
  auth: boolean;
  /** An `AuthError`'s message as told words, when it was made so. */
  told?: Told;
}

/**
 * One thing a worker tells main, in the order it happened.
 *
 * @example
 * ```ts
 * import type { WorkerItem } from "./messages.ts";
 * const item: WorkerItem = { kind: "secret", value: "s3cr3t-value" };
 * if (item.kind !== "secret") throw new Error();
 * ```
 */
export type WorkerItem =
  | { kind: "secret"; value: string; shown?: readonly string[] }
  | { kind: "event"; hook: ReporterHook; args: unknown[] }
  /**
   * A flow's result, with the short secrets the worker knew when its steps began (`known`):
   * main masks its messages also by every other one (see `secrets/said_since.ts`).
   */
  | { kind: "done"; index: number; result: FlowResult; known?: readonly string[] }
  /**
   * The flow at `index` did not load again as main checked it (a file it
   * reads changed on disk): main runs the flow it checked itself.
   */
  | { kind: "changed"; index: number; why: string }
  /** A line for the person running flowrun (`RunOptions.notice`: an OAuth2 device to approve). */
  | { kind: "notice"; line: string }
  /** The flow at `index` threw on the worker (`why`, with its stack): main reports it lost. */
  | { kind: "lost"; index: number; why: string }
  /** A response, for the run's OpenAPI coverage. */
  | { kind: "coverage"; method: string; url: string; status: number }
  /** The document of an `openapi:` check that ran, for the run's OpenAPI coverage. */
  | { kind: "coverage-check"; source: string; document: unknown; file: string };

/**
 * A message from a worker to main.
 *
 * @example
 * ```ts
 * import type { FromWorker } from "./messages.ts";
 * const m: FromWorker = { kind: "batch", items: [] };
 * if (m.kind !== "batch") throw new Error();
 * ```
 */
export type FromWorker =
  | { kind: "batch"; items: WorkerItem[] }
  | { kind: "env"; name: string }
  | { kind: "token-get"; id: number; key: string }
  | { kind: "token-fetched"; id: number; token?: WireToken; error?: WireError }
  | { kind: "token-reject"; key: string; token: string }
  | { kind: "failed"; message: string };

/**
 * A message from main to a worker.
 *
 * @example
 * ```ts
 * import type { ToWorker } from "./messages.ts";
 * const m: ToWorker = { kind: "flow", index: 3, file: "a.yaml", part: 0 };
 * if (m.kind !== "flow") throw new Error();
 * ```
 */
export type ToWorker =
  | { kind: "init"; init: WorkerInit }
  /**
   * A flow to run: its place in the run, its file, its data row, and its
   * checked form as JSON, or else the bytes its file was checked from.
   */
  | {
    kind: "flow";
    index: number;
    file: string;
    part: number;
    json?: Uint8Array | string;
    source?: Uint8Array;
    /** With `source`: the checked flow's `fingerprint`, which the flow loaded again must have. */
    print?: string;
  }
  | { kind: "secret"; value: string; shown?: readonly string[] }
  | { kind: "abort"; reason: string }
  | { kind: "token"; id: number; token?: string; error?: WireError }
  | { kind: "token-fetch"; id: number; held?: WireToken };
