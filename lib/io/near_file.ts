/**
 * "Did you mean …?" for a file that does not exist: a file beside it with
 * the same name and another extension (`login.yml` for `login.yaml`), or
 * one whose name is a near spelling. Deno API family: `Deno.readDirSync`.
 *
 * @module
 */
import { suggest } from "../_util/suggest.ts";

/** Entries of a directory looked at, so a huge one is never listed whole. */
export const MAX_NEAR_ENTRIES = 10_000;

/** `name` without its last extension. */
function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The name of a regular file in `path`'s directory that `path` probably
 * meant (same stem with another extension first, then a near spelling), or
 * `undefined` when there is none or the directory cannot be read.
 *
 * @example
 * ```ts
 * import { nearFile } from "./near_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/login.yaml`, "");
 * const near = nearFile(`${dir}/login.yml`);
 * await Deno.remove(dir, { recursive: true });
 * if (near !== "login.yaml") throw new Error(near);
 * ```
 */
export function nearFile(path: string): string | undefined {
  const slash = path.lastIndexOf("/");
  const dir = slash >= 0 ? path.slice(0, slash) || "/" : ".";
  const name = path.slice(slash + 1);
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile && entry.name !== name) names.push(entry.name);
      if (names.length >= MAX_NEAR_ENTRIES) break;
    }
  } catch {
    // A directory that cannot be listed has no suggestion; the read error says why.
    return undefined;
  }
  const sameStem = names.find((n) => stem(n) === stem(name));
  return sameStem ?? suggest(name, names);
}
