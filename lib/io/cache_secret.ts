/**
 * The per-user key that seals flow cache entries (`--cache-dir`): 32 random
 * bytes in a file of the user's own, outside any cache folder, made on first
 * use. Whoever can write a cache folder (a shared temporary path, a CI cache
 * restored from another job) cannot seal an entry without it, so an entry
 * they wrote is a miss. Deno API family: `Deno.readTextFileSync`/
 * `Deno.writeTextFileSync`/`Deno.mkdirSync`/`Deno.lstatSync`.
 *
 * @module
 */
import { hex } from "../_util/sha256.ts";
import { notOwn } from "./ownership.ts";
import { tempBeside } from "./paths.ts";

/**
 * Where the key is kept: `flowrun/cache-key` under `XDG_CONFIG_HOME`, else
 * `~/.config` (`LOCALAPPDATA` on Windows); `undefined` when none is set.
 * Not a cache folder: CI caches restore those, and a restored key would
 * seal what another job wrote.
 *
 * @example
 * ```ts
 * import { cacheSecretPath } from "./cache_secret.ts";
 * const env = (name: string) => ({ HOME: "/home/a" } as Record<string, string>)[name];
 * if (Deno.build.os !== "windows" && cacheSecretPath(env) !== "/home/a/.config/flowrun/cache-key") throw new Error();
 * ```
 */
export function cacheSecretPath(env: (name: string) => string | undefined): string | undefined {
  const base = Deno.build.os === "windows"
    ? env("LOCALAPPDATA") || env("APPDATA")
    : env("XDG_CONFIG_HOME") || (env("HOME") ? `${env("HOME")}/.config` : undefined);
  return base ? `${base}/flowrun/cache-key` : undefined;
}

/** What {@linkcode cacheSecret} gives: the key, or why there is none. */
export type CacheSecret = { key: Uint8Array } | { problem: string };

/**
 * The key at `path`, made there when there is none yet; a problem (the file
 * or its folder is not the user's own (`uid`), or the file holds no key)
 * when it cannot be trusted.
 *
 * @example
 * ```ts
 * import { cacheSecret } from "./cache_secret.ts";
 * const dir = await Deno.makeTempDir();
 * const a = cacheSecret(`${dir}/flowrun/cache-key`, undefined);
 * const b = cacheSecret(`${dir}/flowrun/cache-key`, undefined);
 * await Deno.remove(dir, { recursive: true });
 * if (!("key" in a) || !("key" in b) || a.key.length !== 32 || a.key.join() !== b.key.join()) throw new Error();
 * ```
 */
export function cacheSecret(path: string, uid: number | undefined): CacheSecret {
  const folder = path.slice(0, path.lastIndexOf("/"));
  try {
    Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const why = notOwn(Deno.statSync(folder), uid);
    if (why) return { problem: `its key folder "${folder}" is not used: ${why}` };
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    if (placeKey(path, `${hex(fresh)}\n`)) return { key: fresh };
    const info = Deno.lstatSync(path);
    const not = info.isFile ? notOwn(info, uid) : "it is not a regular file";
    if (not) return { problem: `its key "${path}" is not used: ${not}` };
    const text = Deno.readTextFileSync(path).trim();
    if (!/^[0-9a-f]{64}$/.test(text)) return { problem: `its key "${path}" holds no key` };
    return { key: new Uint8Array(text.match(/../g)!.map((b) => parseInt(b, 16))) };
  } catch (error) {
    return { problem: `its key "${path}" cannot be read or made: ${(error as Error).message}` };
  }
}

/**
 * Puts `text` at `path` whole, unless something is there already (`false`):
 * written beside it and linked in, so a run starting at the same moment
 * reads either no key or all of it, never an empty file.
 */
function placeKey(path: string, text: string): boolean {
  const temp = tempBeside(path);
  Deno.writeTextFileSync(temp, text, { createNew: true, mode: 0o600 });
  try {
    Deno.linkSync(temp, path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  } finally {
    Deno.removeSync(temp);
  }
}
