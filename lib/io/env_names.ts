/**
 * The names of the environment variables that are set — never their
 * values — for "did you mean" hints. Deno API family: `Deno.env`.
 *
 * @module
 */

/**
 * The names of the set environment variables; none when they cannot be
 * listed (without `--allow-env`).
 *
 * @example
 * ```ts
 * import { envNames } from "./env_names.ts";
 * Deno.env.set("FLOWRUN_ENV_NAMES_EXAMPLE", "1");
 * if (!envNames().includes("FLOWRUN_ENV_NAMES_EXAMPLE")) throw new Error();
 * ```
 */
export function envNames(): string[] {
  try {
    return Object.keys(Deno.env.toObject());
  } catch {
    // Without permission to list the environment there is nothing to suggest.
    return [];
  }
}
