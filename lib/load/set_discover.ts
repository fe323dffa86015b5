/**
 * The first stages of loading a flow set: discover the flow files under the
 * paths, then select this shard's part (by count, or by earlier timings).
 * Setup and teardown files are left out: they are loaded on their own and
 * never sharded.
 *
 * @module
 */
import { discoverFlowEntries, type FlowEntry } from "../io/discover.ts";
import { selectShard } from "../select/shard.ts";
import { selectShardByTime } from "../select/shard_time.ts";
import type { LoadFlowsOptions } from "./set_types.ts";

/**
 * The flow files this load reads, sorted: every `*.yaml`/`*.yml` under the
 * paths but the setup and teardown files, then this shard's part. Throws
 * `UsageError` for a missing path.
 *
 * @example
 * ```ts
 * import { discoverSet } from "./set_discover.ts";
 * const dir = await Deno.makeTempDir();
 * for (const n of ["a", "b", "setup"]) await Deno.writeTextFile(`${dir}/${n}.yaml`, "");
 * const all = await discoverSet([dir], { setupFiles: [`${dir}/setup.yaml`] });
 * const half = await discoverSet([dir], { shard: { index: 1, total: 2 } });
 * await Deno.remove(dir, { recursive: true });
 * if (all.map((e) => e.key).join() !== "a.yaml,b.yaml") throw new Error();
 * if (half.length >= 3) throw new Error();
 * ```
 */
export async function discoverSet(
  paths: readonly string[],
  options: LoadFlowsOptions,
): Promise<FlowEntry[]> {
  const special = [...options.setupFiles ?? [], ...options.teardownFiles ?? []];
  const entries = (await discoverFlowEntries(paths)).filter((e) =>
    !special.some((s) => sameFile(s, e.file))
  );
  if (!options.shard) return entries;
  return options.shardTimes
    ? selectShardByTime(entries, options.shard, options.shardTimes)
    : selectShard(entries, options.shard);
}

/** Whether two paths name the same file, as given or normalised (`./a.yaml` and `a.yaml`). */
function sameFile(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/^\.\//, "").replaceAll("/./", "/");
  return norm(a) === norm(b);
}
