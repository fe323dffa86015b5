/**
 * How the runner is started. The permissions it needs, and nothing broader: network for the
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

/**
 * How the runner's JavaScript heap is sized, set wherever the CLI starts
 * (the compiled binary, `deno task flowrun`, tests, the benchmark). V8's
 * defaults suit a browser tab: a young generation of up to 16 MiB per
 * semi-space, and an old generation allowed to grow to four times what is
 * live before a full collection. A suite's live data is small (about 20 MiB
 * at 2,000 flows) but it allocates fast, so the heap grew to 110 MiB and the
 * process to 220 MiB. Here the young generation stays at 2 MiB per
 * semi-space and the old one grows 30 % over live data: 2,000 flows in about
 * 120 MiB, with no measurable change in run time (alternating runs of the
 * 200-flow bench). A user can trade memory back for speed with their own
 * `--v8-flags` when running from source.
 *
 * @example
 * ```ts
 * import { RUNNER_V8_FLAGS } from "./permissions.ts";
 * if (!RUNNER_V8_FLAGS[0].startsWith("--v8-flags=")) throw new Error();
 * ```
 */
export const RUNNER_V8_FLAGS: readonly string[] = [
  "--v8-flags=--max-semi-space-size=2,--heap-growing-percent=30",
];
