/**
 * The runner's version, read from `deno.json` so that file is its only source.
 *
 * @module
 */
import config from "../../deno.json" with { type: "json" };

/**
 * The flowrun version, e.g. `0.1.0`.
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * if (!/^\d+\.\d+\.\d+/.test(VERSION)) throw new Error(VERSION);
 * ```
 */
export const VERSION: string = config.version;
