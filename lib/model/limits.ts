/**
 * The documented bounds of flowrun's input, in one place: how large a flow
 * file may be, how deep its YAML may nest, how far its aliases may expand,
 * how long polling may go on, and how long a request may wait. The checks
 * that need the YAML parser (depth, aliases) are in `load/yaml_limits.ts`.
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import { clipped } from "../_util/clip.ts";

/**
 * Largest flow file read, in bytes (10 MiB): far past any real flow, below
 * the size where parsing exhausts memory. Checked before parsing.
 *
 * @example
 * ```ts
 * import { MAX_FILE_BYTES } from "./limits.ts";
 * if (MAX_FILE_BYTES !== 10 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Deepest nesting of YAML collections (lists and maps, in block or flow
 * style, aliases expanded) accepted in a flow.
 *
 * @example
 * ```ts
 * import { MAX_DEPTH } from "./limits.ts";
 * if (MAX_DEPTH !== 256) throw new Error();
 * ```
 */
export const MAX_DEPTH = 256;

/**
 * Nodes that aliases may add to a document (each use of an alias copies its
 * anchor's whole value): generous for shared defaults, far below a "billion
 * laughs".
 *
 * @example
 * ```ts
 * import { MAX_ALIAS_EXPANSION } from "./limits.ts";
 * if (MAX_ALIAS_EXPANSION !== 100_000) throw new Error();
 * ```
 */
export const MAX_ALIAS_EXPANSION = 100_000;

/**
 * Deepest chain of includes (a flow including a flow including …): far past
 * any real reuse, and loading and running a chain recurse once per level.
 *
 * @example
 * ```ts
 * import { MAX_INCLUDE_DEPTH } from "./limits.ts";
 * if (MAX_INCLUDE_DEPTH !== 32) throw new Error();
 * ```
 */
export const MAX_INCLUDE_DEPTH = 32;

/**
 * Deepest nesting of a structured var value (a map or list under `vars`,
 * or given by an include's `with`), as for `--vars-file` and data files.
 *
 * @example
 * ```ts
 * import { MAX_VAR_DEPTH } from "./limits.ts";
 * if (MAX_VAR_DEPTH !== 64) throw new Error();
 * ```
 */
export const MAX_VAR_DEPTH = 64;

/**
 * Most entries (list items and map keys, at every level) of one structured
 * var value: a body or a set of headers, not a data set.
 *
 * @example
 * ```ts
 * import { MAX_VAR_ENTRIES } from "./limits.ts";
 * if (MAX_VAR_ENTRIES !== 10_000) throw new Error();
 * ```
 */
export const MAX_VAR_ENTRIES = 10_000;

/**
 * Most requests one polling step may send (`loop.max_attempts`).
 *
 * @example
 * ```ts
 * import { MAX_ATTEMPTS } from "./limits.ts";
 * if (MAX_ATTEMPTS !== 10_000) throw new Error();
 * ```
 */
export const MAX_ATTEMPTS = 10_000;

/**
 * Iterations of a `foreach` step when its `max_iterations` does not say:
 * a longer list fails the step rather than being cut short.
 *
 * @example
 * ```ts
 * import { DEFAULT_FOREACH_MAX } from "./limits.ts";
 * if (DEFAULT_FOREACH_MAX !== 1_000) throw new Error();
 * ```
 */
export const DEFAULT_FOREACH_MAX = 1_000;

/**
 * Most iterations a `foreach` step may allow (`max_iterations`).
 *
 * @example
 * ```ts
 * import { MAX_FOREACH } from "./limits.ts";
 * if (MAX_FOREACH !== 10_000) throw new Error();
 * ```
 */
export const MAX_FOREACH = 10_000;

/**
 * Longest pause between two polling attempts (`loop.sleep_ms`): one hour.
 * A JavaScript timer past 2³¹−1 ms fires at once, so without a bound a huge
 * value silently became 1 ms.
 *
 * @example
 * ```ts
 * import { MAX_SLEEP_MS } from "./limits.ts";
 * if (MAX_SLEEP_MS !== 3_600_000) throw new Error();
 * ```
 */
export const MAX_SLEEP_MS = 3_600_000;

/**
 * Longest per-request timeout (`--timeout`), 2³¹−1 ms (about 24.8 days): the
 * longest a JavaScript timer can wait.
 *
 * @example
 * ```ts
 * import { MAX_TIMEOUT_MS } from "./limits.ts";
 * if (MAX_TIMEOUT_MS !== 2 ** 31 - 1) throw new Error();
 * ```
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Parses a `--timeout` value: a whole number of milliseconds from 1 to
 * {@linkcode MAX_TIMEOUT_MS}, written in decimal digits. Throws a
 * `UsageError` with code `bad-timeout` for anything else (`1.5`, `1e300`,
 * `0x10`, `-1`, `2147483648`), so a bad value is refused instead of becoming
 * a 1 ms timer.
 *
 * @example
 * ```ts
 * import { parseTimeoutMs } from "./limits.ts";
 * if (parseTimeoutMs("30000") !== 30000) throw new Error();
 * try {
 *   parseTimeoutMs("2147483648");
 *   throw new Error("expected bad-timeout");
 * } catch (error) {
 *   if ((error as { code?: string }).code !== "bad-timeout") throw error;
 * }
 * ```
 */
export function parseTimeoutMs(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(
      "bad-timeout",
      `Expected --timeout to be a positive whole number of milliseconds, got "${clip(value)}".`,
      "For example: --timeout 30000 (30 s).",
    );
  }
  if (n > MAX_TIMEOUT_MS) {
    throw new UsageError(
      "bad-timeout",
      `Expected --timeout to be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days), got "${
        clip(value)
      }".`,
      `A JavaScript timer cannot wait longer; use --timeout ${MAX_TIMEOUT_MS} or less.`,
    );
  }
  return n;
}

function clip(value: string): string {
  return clipped(value, 40);
}

/**
 * The largest file a flow may send (`body_file`, a multipart file), in
 * bytes: it is read when the flow loads and held while the run lasts.
 *
 * @example
 * ```ts
 * import { MAX_UPLOAD_BYTES } from "./limits.ts";
 * if (MAX_UPLOAD_BYTES !== 100 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * Checked flows a run keeps parsed before it starts (the first ones in run
 * order); past them, flows that need nothing prepared ahead are held as their
 * bytes and parsed again in turn, so memory does not grow with the suite
 * (see `loadFlowsDeferred`). A suite up to this size parses each file once.
 *
 * @example
 * ```ts
 * import { PARSED_FLOW_WINDOW } from "./limits.ts";
 * if (PARSED_FLOW_WINDOW !== 500) throw new Error();
 * ```
 */
export const PARSED_FLOW_WINDOW = 500;

/**
 * The largest small input, in bytes: a data file of rows, a `--vars-file`,
 * an `--env-file`, a PEM certificate or key (`--cacert`, `--cert`, `--key`,
 * a flow's `tls` files). Any of them larger is a mistake, and each is held
 * in memory whole.
 *
 * @example
 * ```ts
 * import { MAX_INPUT_BYTES } from "./limits.ts";
 * if (MAX_INPUT_BYTES !== 10 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/**
 * The largest JSON Schema or OpenAPI document a check may name, in bytes:
 * the descriptions of large public APIs run to about 10 MB.
 *
 * @example
 * ```ts
 * import { MAX_DOCUMENT_BYTES } from "./limits.ts";
 * if (MAX_DOCUMENT_BYTES !== 32 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/**
 * The distinct requests (method, status, URL path) a run keeps for its
 * OpenAPI coverage: past it, further distinct ones are counted but not
 * matched, and the coverage says so. Bounds memory at any suite size.
 *
 * @example
 * ```ts
 * import { MAX_COVERAGE_REQUESTS } from "./limits.ts";
 * if (MAX_COVERAGE_REQUESTS !== 100_000) throw new Error();
 * ```
 */
export const MAX_COVERAGE_REQUESTS = 100_000;

/**
 * The largest recording or report read whole, in bytes: the HAR of
 * `convert har`, the reports of `merge` and `report html`, and
 * `--shard-timings`. A browser's recording with bodies runs to hundreds of
 * MB; past 256 MiB, parsing the JSON would take gigabytes of memory (and a
 * string past about 512 MiB cannot be made at all).
 *
 * @example
 * ```ts
 * import { MAX_RECORDING_BYTES } from "./limits.ts";
 * if (MAX_RECORDING_BYTES !== 256 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/**
 * The most re-runs of a flow that did not pass (`--retries`, a flow's
 * `retries:`): a flow that fails ten times in a row is broken, not flaky,
 * and each run's failed steps are kept in the reports.
 *
 * @example
 * ```ts
 * import { MAX_FLOW_RETRIES } from "./limits.ts";
 * if (MAX_FLOW_RETRIES !== 10) throw new Error();
 * ```
 */
export const MAX_FLOW_RETRIES = 10;

/**
 * The most earlier reports `--history` reads (each at most
 * {@linkcode MAX_RECORDING_BYTES}); a streak shows the last runs of these.
 *
 * @example
 * ```ts
 * import { MAX_HISTORY_REPORTS } from "./limits.ts";
 * if (MAX_HISTORY_REPORTS !== 20) throw new Error();
 * ```
 */
export const MAX_HISTORY_REPORTS = 20;
