/**
 * The shapes of loading a flow set: what selects and checks it
 * ({@linkcode LoadFlowsOptions}), what it gives ({@linkcode LoadFlowsResult}),
 * and the state the stages of `suite.ts` hand on ({@linkcode SetLoad}).
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import type { DeferredFlow, Flow } from "../model/flow.ts";
import type { ByteSpill } from "../model/spill.ts";
import type { Shard } from "../select/shard.ts";
import type { FlowCache } from "./flow_cache.ts";
import type { LoadOptions } from "./load_flow.ts";

/** How to select and check the flows of a set. */
export interface LoadFlowsOptions extends LoadOptions {
  /** Keep only this shard's part of the files (split by path relative to each path argument). */
  shard?: Shard;
  /**
   * Balance `shard` by these durations (ms per flow file, from earlier
   * reports) instead of dealing files by count.
   */
  shardTimes?: ReadonlyMap<string, number>;
  /** Keep only flows whose name or path matches one of these (see `lib/select/filter.ts`). */
  filter?: readonly string[];
  /** Keep only flows whose `tags` satisfy this expression (see `lib/select/tags.ts`). */
  tags?: string;
  /** Setup flow files (`--setup`): loaded first, never sharded or filtered out. */
  setupFiles?: readonly string[];
  /** Teardown flow files (`--teardown`): never sharded or filtered out. */
  teardownFiles?: readonly string[];
  /**
   * Files the user named on the command line (`--openapi DOC`), which a flow may name wherever
   * they lie (the file root's exception); used when `fileRoots` is not given.
   */
  namedFiles?: readonly string[];
  /**
   * Checked flows kept between runs (`--cache-dir`, see `flow_cache.ts`):
   * a flow file whose bytes and options are unchanged is read back instead
   * of being parsed and checked again.
   */
  cache?: FlowCache;
  /**
   * Where a deferred flow's bytes and its checked form (JSON) wait for
   * their turn (`byteSpill` in `io/`; see `loadFlowsDeferred`).
   * Without one the bytes wait in memory and the flow is parsed again.
   */
  spill?: ByteSpill;
  /**
   * The run's interrupt: once aborted, schemas are no longer compiled (each
   * compile blocks up to 2 s), so a signal ends the loading at once.
   */
  signal?: AbortSignal;
}

/** The flows of a set, or the problems that prevent running it. */
export interface LoadFlowsResult {
  /** Every selected flow that loaded, in sorted path order. */
  flows: Flow[];
  /** Every problem of every selected file; when not empty, nothing should be run. */
  problems: Problem[];
  /** The selected flow files, in sorted path order. */
  files: string[];
  /** The bytes of each selected file as loaded, for checksums in the manifest. */
  bytes: Map<string, Uint8Array>;
  /** The setup flows that loaded, in the order given. */
  setup: Flow[];
  /** The teardown flows that loaded, in the order given. */
  teardown: Flow[];
  /**
   * Files the selected flows include (`include:`) that are not selected
   * themselves, in the order first met; their bytes are in `bytes`.
   */
  included: string[];
  /** What is probably a mistake but does not stop the run (a `--var` no flow reads). */
  warnings: { code: string; message: string; hint: string; name?: string }[];
  /**
   * Every tag the checked flows and their steps carry, selected or not: what a `--tag` that
   * selects nothing probably meant.
   */
  tagsSeen?: string[];
}

/**
 * What `loadFlowsDeferred` gives: the same, but flows past the
 * first few hundred may be held as their bytes until they run.
 */
export type DeferredLoadResult = Omit<LoadFlowsResult, "flows"> & {
  /** Every selected flow that loaded, in sorted path order, parsed or held as its bytes. */
  flows: (Flow | DeferredFlow)[];
};

/** A set being loaded: what it gives so far, and the files whose problems are listed. */
export interface SetLoad {
  readonly result: DeferredLoadResult;
  /** Files whose problems are listed: once, however many flows include them. */
  readonly reported: Set<string>;
}

/**
 * A set with nothing loaded yet.
 *
 * @example
 * ```ts
 * import { emptySet } from "./set_types.ts";
 * const { result, reported } = emptySet();
 * if (result.flows.length !== 0 || result.bytes.size !== 0 || reported.size !== 0) throw new Error();
 * ```
 */
export function emptySet(): SetLoad {
  return {
    result: {
      flows: [],
      problems: [],
      files: [],
      bytes: new Map(),
      warnings: [],
      setup: [],
      teardown: [],
      included: [],
    },
    reported: new Set(),
  };
}
