/**
 * Load and check cold: a fresh process reads and checks every flow file of a
 * directory, as `flowrun run` does before sending anything, and prints the
 * milliseconds it took, so the JIT's warm-up is counted. With a second
 * argument, through that `--cache-dir` (fill it with one run first).
 * Usage: deno run -A bench/load.ts <flows dir> [cache dir]. Run by bench/run.ts.
 */
import { loadFlows } from "../lib/load/suite.ts";
import { flowCacheIn } from "../lib/io/cache_dir.ts";

const [dir, cacheDir] = Deno.args;
const cache = cacheDir === undefined ? undefined : flowCacheIn(cacheDir);
const started = performance.now();
const { problems } = await loadFlows([dir], {
  env: (name) => name === "BASE_URL" ? "http://127.0.0.1:1" : undefined,
  ...(cache ? { cache } : {}),
});
const ms = performance.now() - started;
await cache?.flush();
if (problems.length > 0) throw new Error(`${problems.length} problems in ${dir}`);
console.log(ms.toFixed(1));
