/**
 * The disk side of the flow cache: one file per entry in a folder, listed
 * once, written in the background, replaced by rename. Deno API family:
 * `Deno.readDirSync`/`Deno.writeTextFile`/`Deno.rename` (entries are read
 * through `readBytesSync`).
 *
 * @module
 */
import { MAX_RECORDING_BYTES } from "../model/limits.ts";
import { tempBeside } from "./paths.ts";
import { readBytesSync } from "./read.ts";

/** The entries of a flow cache on disk (see {@linkcode flowCacheIn}). */
export interface FlowCacheDir {
  /** The entry's text, or undefined for a miss (or an entry that cannot be read). */
  read(key: string): string | undefined;
  /** Writes the entry in the background; a failure is only a slower next run. */
  write(key: string, text: string): void;
  /** Waits for the writes started so far. */
  flush(): Promise<void>;
}

/**
 * Writes a cache entry beside its path and renames it over: whatever the
 * path already is (a FIFO would hold the run waiting for a reader, a symlink
 * would be written through to its target) is replaced, never opened.
 */
async function replaceEntry(path: string, text: string): Promise<void> {
  const temp = tempBeside(path);
  try {
    await Deno.writeTextFile(temp, text, { createNew: true });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** The names in `dir`, none when it cannot be listed (a cache not written yet). */
function namesIn(dir: string): Set<string> {
  try {
    return new Set(Array.from(Deno.readDirSync(dir), (e) => e.name));
  } catch {
    return new Set();
  }
}

/**
 * A flow cache kept as one file per entry in `dir` (created when the first
 * entry is written; safe to delete at any time). The directory is listed
 * once, so a miss costs no failed read. Entries are written in the
 * background; `flush` waits for them. A read or write that fails is a miss
 * or skipped, never an error of the run; an entry cut short (a crash while
 * writing, two runs writing at once) is not valid JSON, so it is a miss too,
 * and is written again.
 *
 * @example
 * ```ts
 * import { flowCacheIn } from "./cache_dir.ts";
 * const dir = await Deno.makeTempDir();
 * const cache = flowCacheIn(`${dir}/cache`);
 * cache.write("k1", "{}");
 * await cache.flush();
 * const back = flowCacheIn(`${dir}/cache`).read("k1");
 * await Deno.remove(dir, { recursive: true });
 * if (back !== "{}" || cache.read("k2") !== undefined) throw new Error();
 * ```
 */
export function flowCacheIn(dir: string): FlowCacheDir {
  const path = (key: string) => `${dir}/${key}.json`;
  let names: Set<string> | undefined;
  let made: Promise<unknown> | undefined;
  const writes: Promise<unknown>[] = [];
  return {
    read(key) {
      names ??= namesIn(dir);
      if (!names.has(`${key}.json`)) return undefined;
      try {
        // Read like any input: a FIFO or device put in the cache folder is a miss, never a hang.
        return new TextDecoder().decode(readBytesSync(path(key), { limit: MAX_RECORDING_BYTES }));
      } catch {
        return undefined;
      }
    },
    write(key, text) {
      // A cache that cannot be written is only slower.
      made ??= Deno.mkdir(dir, { recursive: true }).catch(() => {});
      writes.push(made.then(() => replaceEntry(path(key), text)).catch(() => {}));
    },
    async flush() {
      await Promise.all(writes.splice(0));
    },
  };
}
