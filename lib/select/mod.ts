/**
 * Selecting which flows a run runs: `--filter` globs (`filter.ts`), `--tag`
 * expressions (`tags.ts`), and `--shard` by count (`shard.ts`) or by an
 * earlier report's timings (`shard_time.ts`). It takes flow paths, tags and
 * durations and gives the flows (or steps) to run; no I/O.
 *
 * @example
 * ```ts
 * import { compileTags, matchesFilter, parseShard } from "./mod.ts";
 * if (!compileTags("smoke and not slow")(new Set(["smoke"]))) throw new Error();
 * if (!matchesFilter(["flows/*.yaml"], { file: "flows/login.yaml" })) throw new Error();
 * if (parseShard("2/3").index !== 2) throw new Error();
 * ```
 *
 * @module
 */
export * from "./filter.ts";
export * from "./shard.ts";
export * from "./shard_time.ts";
export * from "./tags.ts";
