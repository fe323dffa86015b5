/**
 * A set-up command of a real-server test (an install, a migration, a
 * generator) run to its end but never longer than a bound: a hung one is
 * killed, so the test fails instead of waiting forever.
 *
 * @module
 */

/** Where and how long: the folder it runs in, its environment, the kill after `ms`. */
export interface Bound {
  ms: number;
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * Runs `cmd` (stdin closed, its output piped), killed with SIGKILL after
 * `ms`; what it gave. A failure is the caller's to word.
 *
 * @example
 * ```ts
 * import { runCommandBounded } from "./bounded.ts";
 * const out = await runCommandBounded(["sh", "-c", "echo hi; exit 3"], { ms: 10_000 });
 * if (out.code !== 3 || new TextDecoder().decode(out.stdout) !== "hi\n") throw new Error();
 * ```
 */
export async function runCommandBounded(cmd: string[], bound: Bound): Promise<Deno.CommandOutput> {
  const { ms, ...where } = bound;
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    ...where,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  return await child.output().finally(() => clearTimeout(timer));
}

/**
 * The last 1500 characters of what a failed command wrote to stderr, trimmed:
 * enough to say why, short enough for a test's error.
 *
 * @example
 * ```ts
 * import { stderrTail } from "./bounded.ts";
 * const out = { stderr: new TextEncoder().encode(`${"x".repeat(2000)}why\n`) } as Deno.CommandOutput;
 * if (!stderrTail(out).endsWith("xwhy") || stderrTail(out).length !== 1500) throw new Error();
 * ```
 */
export function stderrTail(out: Deno.CommandOutput): string {
  return new TextDecoder().decode(out.stderr).trim().slice(-1500);
}
