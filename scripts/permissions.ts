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
 * How V8 runs the runner, set wherever the CLI starts (the compiled binary,
 * `deno task flowrun`, tests, the benchmark).
 *
 * Heap: V8's defaults suit a browser tab: a young generation of up to 16 MiB
 * per semi-space, and an old generation allowed to grow to four times what is
 * live before a full collection. A suite's live data is small (about 20 MiB
 * at 2,000 flows) but it allocates fast, so the heap grew to 110 MiB and the
 * process to 220 MiB. Here the young generation is 4 MiB per semi-space from
 * the start (so a one-request run, which allocates about 4 MiB while its
 * modules load, collects nothing) and the old one grows 30 % over live data:
 * 2,000 flows in about 110 MiB.
 *
 * Compilation: `--no-lazy` compiles every function when its module is
 * compiled, so Deno's code cache holds all of them. By default V8 compiles a
 * function on its first call, in every process, and a one-request run spent
 * about 14 ms doing that; the run path's cache grows from 0.2 to 0.8 MB. The flag is
 * part of V8's code-cache key: a process started without it (the test runner
 * importing `lib/`) rejects the cache this one wrote and writes its own, once
 * per module. So variants that differ in such a flag are compared with their
 * own `DENO_DIR` each, or each run recompiles everything.
 *
 * A user can trade memory back for speed with their own `--v8-flags` when
 * running from source.
 *
 * @example
 * ```ts
 * import { RUNNER_V8_FLAGS } from "./permissions.ts";
 * if (!RUNNER_V8_FLAGS[0].startsWith("--v8-flags=")) throw new Error();
 * ```
 */
export const RUNNER_V8_FLAGS: readonly string[] = [
  "--v8-flags=--max-semi-space-size=4,--min-semi-space-size=4,--heap-growing-percent=30,--no-lazy",
];
