/**
 * The process environment, read in one place so everything else takes an
 * `env` function and stays testable. Deno API family: `Deno.env`.
 *
 * @module
 */

/**
 * Reads an environment variable; `undefined` when unset.
 *
 * @example
 * ```ts
 * import { readEnv } from "./env.ts";
 * if (readEnv("FLOWRUN_SURELY_UNSET_VARIABLE") !== undefined) throw new Error();
 * ```
 */
export function readEnv(name: string): string | undefined {
  return Deno.env.get(name);
}
