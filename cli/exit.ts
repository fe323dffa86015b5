/**
 * Exit codes, as documented in the README and `--help`.
 *
 * @module
 */

/**
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner; 4 the run
 * finished but a requested artifact could not be written; 130/143
 * interrupted by SIGINT/SIGTERM (artifacts still written).
 *
 * @example
 * ```ts
 * import { EXIT } from "./exit.ts";
 * if (EXIT.usage !== 2 || EXIT.artifacts !== 4) throw new Error();
 * ```
 */
export const EXIT = {
  passed: 0,
  failed: 1,
  usage: 2,
  internal: 3,
  artifacts: 4,
  SIGINT: 130,
  SIGTERM: 143,
} as const;
