/**
 * The disk side of the flow cache: one file per entry in a folder, listed
 * once, written in the background, replaced by rename. Deno API family:
 * `Deno.readDirSync`/`Deno.writeTextFile`/`Deno.rename` (entries are read
 * through `readBytesSync`).
 *
 * Nothing in the folder is trusted for being there: whoever can write it (a
 * shared temporary path, a CI cache restored from another job) could have
 * written any entry. Each entry is sealed with an HMAC under a per-user key
 * kept outside the folder (`cache_secret.ts`), over its name and text; an
 * entry whose seal does not check is a miss. A folder or entry that is not
 * the user's own (another owner, or writable by group or others) is not
 * used at all, with one warning line.
 *
 * @module
 */
import { MAX_RECORDING_BYTES } from "../model/limits.ts";
import { hex, hmacSha256 } from "../_util/sha256.ts";
import { cacheSecret, cacheSecretPath } from "./cache_secret.ts";
import { currentUid, notOwn } from "./ownership.ts";
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
    await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o600 });
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

/** How {@linkcode flowCacheIn} reports and where it finds its key. */
export interface FlowCacheDirOptions {
  /** Given each warning (a folder or entry not used), at most once per kind. */
  warn?: (warning: CacheWarning) => void;
  /** The per-user key file (see `cacheSecretPath`; the environment's by default). */
  secretPath?: string;
}

/** Why a cache folder or entry is not used (docs/troubleshooting.md#cache-not-trusted). */
export interface CacheWarning {
  code: "cache-not-trusted";
  /** One sentence naming the folder (and entry) and why. */
  message: string;
}

/** The warning for `message`. */
function notTrusted(message: string): CacheWarning {
  return {
    code: "cache-not-trusted",
    message,
  };
}

/** The first line of an entry: its seal, then the text the cache was given. */
const SEAL = "flowrun-cache-hmac-sha256 ";

/** The seal of `text` stored under `key`, with the per-user `secret`. */
function sealOf(secret: Uint8Array, key: string, text: string): string {
  return hex(hmacSha256(secret, new TextEncoder().encode(`${key}\0${text}`)));
}

/**
 * The text of a stored entry (its seal line, then the text) when its seal
 * under `key` checks: an entry cut short, or written without the user's
 * key, is a miss.
 */
function unsealed(stored: string, secret: Uint8Array, key: string): string | undefined {
  const end = stored.indexOf("\n");
  if (!stored.startsWith(SEAL) || end < 0) return undefined;
  const text = stored.slice(end + 1);
  return stored.slice(SEAL.length, end) === sealOf(secret, key, text) ? text : undefined;
}

/**
 * The text of the entry file `file`, stored under `key`, when the file is the
 * user's own and its seal checks; `notOwnEntry` is told why a file is not the
 * user's own. Throws when the file cannot be read (a miss to the caller).
 */
function ownSealed(
  file: string,
  key: string,
  user: { secret: Uint8Array; uid: number | undefined },
  notOwnEntry: (file: string, why: string) => void,
): string | undefined {
  const info = Deno.lstatSync(file);
  // A FIFO, device or symlink put in the folder is a miss, never opened.
  if (!info.isFile) return undefined;
  const why = notOwn(info, user.uid);
  if (why) {
    notOwnEntry(file, why);
    return undefined;
  }
  const stored = new TextDecoder().decode(readBytesSync(file, { limit: MAX_RECORDING_BYTES }));
  return unsealed(stored, user.secret, key);
}

/**
 * Whether the folder can be used, and its key: undefined (with a warning)
 * when it, or the key, is not the user's own.
 */
function openFolder(
  dir: string,
  uid: number | undefined,
  options: FlowCacheDirOptions,
): Uint8Array | undefined {
  const refuse = (why: string) => {
    options.warn?.(
      notTrusted(`--cache-dir "${dir}" is not used: ${why}; flows are loaded from their files.`),
    );
    return undefined;
  };
  // Without knowing who runs flowrun, nothing can be told to be the user's own.
  if (uid === undefined && Deno.build.os !== "windows") {
    return refuse("flowrun cannot tell which user it runs as (no temporary file could be made)");
  }
  try {
    const why = notOwn(Deno.statSync(dir), uid);
    if (why) return refuse(why);
  } catch {
    // Not there yet: it is made, the user's own, on the first write.
  }
  const path = options.secretPath ?? cacheSecretPath((name) => Deno.env.get(name));
  if (path === undefined) return refuse("no folder for its key (set HOME or XDG_CONFIG_HOME)");
  const secret = cacheSecret(path, uid);
  return "key" in secret ? secret.key : refuse(secret.problem);
}

/**
 * A flow cache kept as one file per entry in `dir` (created when the first
 * entry is written; safe to delete at any time). The directory is listed
 * once, so a miss costs no failed read. Entries are written in the
 * background; `flush` waits for them. A read or write that fails is a miss
 * or skipped, never an error of the run; an entry cut short (a crash while
 * writing, two runs writing at once) does not check against its seal, so it
 * is a miss too, and is written again. So is an entry written by anyone
 * without the user's key, or not the user's own file.
 *
 * @example
 * ```ts
 * import { flowCacheIn } from "./cache_dir.ts";
 * const dir = await Deno.makeTempDir();
 * const secretPath = `${dir}/config/flowrun/cache-key`;
 * const cache = flowCacheIn(`${dir}/cache`, { secretPath });
 * cache.write("k1", "{}");
 * await cache.flush();
 * const back = flowCacheIn(`${dir}/cache`, { secretPath }).read("k1");
 * // Under another key, the entry is a miss.
 * const other = flowCacheIn(`${dir}/cache`, { secretPath: `${dir}/other/cache-key` }).read("k1");
 * await Deno.remove(dir, { recursive: true });
 * if (back !== "{}" || other !== undefined || cache.read("k2") !== undefined) throw new Error();
 * ```
 */
export function flowCacheIn(dir: string, options: FlowCacheDirOptions = {}): FlowCacheDir {
  const path = (key: string) => `${dir}/${key}.json`;
  let opened: { secret: Uint8Array | undefined; uid: number | undefined } | undefined;
  const open = () => {
    if (opened) return opened;
    const uid = currentUid();
    return opened = { uid, secret: openFolder(dir, uid, options) };
  };
  let names: Set<string> | undefined;
  let made: Promise<unknown> | undefined;
  let warned = false;
  const writes: Promise<unknown>[] = [];
  // One warning for the folder's entries, not one per entry.
  const notOwnEntry = (file: string, why: string) => {
    if (!warned) {
      options.warn?.(notTrusted(
        `Entries of --cache-dir "${dir}" are not used: "${file}": ${why}; ` +
          "their flows are loaded from their files.",
      ));
    }
    warned = true;
  };
  return {
    read(key) {
      const { secret, uid } = open();
      if (!secret) return undefined;
      names ??= namesIn(dir);
      if (!names.has(`${key}.json`)) return undefined;
      try {
        return ownSealed(path(key), key, { secret, uid }, notOwnEntry);
      } catch {
        return undefined;
      }
    },
    write(key, text) {
      const { secret } = open();
      if (!secret) return;
      // A cache that cannot be written is only slower.
      made ??= Deno.mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
      const sealed = `${SEAL}${sealOf(secret, key, text)}\n${text}`;
      writes.push(made.then(() => replaceEntry(path(key), sealed)).catch(() => {}));
    },
    async flush() {
      await Promise.all(writes.splice(0));
    },
  };
}
