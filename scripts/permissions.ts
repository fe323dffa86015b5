/**
 * The permissions the runner needs, and nothing broader: network for the
 * requests, read for flow files, write for reports, env for `${ENV.X}` (the
 * yaml package also reads LOG_TOKENS/LOG_STREAM). Scripts, tests and the
 * benchmark start the CLI with exactly these, as the compiled binary will.
 *
 * @example
 * ```ts
 * import { RUNNER_PERMISSIONS } from "./permissions.ts";
 * if (RUNNER_PERMISSIONS.includes("--allow-all")) throw new Error();
 * ```
 *
 * @module
 */
export const RUNNER_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
];
