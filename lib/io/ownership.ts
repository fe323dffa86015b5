/**
 * Whether a file or folder is the user's own: owned by the user running
 * flowrun and writable by nobody else. Read from what `Deno.statSync` gives
 * (`uid`, `mode`); on Windows, which gives neither, everything is trusted.
 * Deno API family: `Deno.statSync`/`Deno.makeTempFileSync`.
 *
 * @module
 */

/**
 * The user id flowrun runs as, from the owner of a file it creates (so the
 * runner needs no `--allow-sys`); `undefined` on Windows or when no
 * temporary file can be made.
 *
 * @example
 * ```ts
 * import { currentUid } from "./ownership.ts";
 * const uid = currentUid();
 * if (Deno.build.os !== "windows" && typeof uid !== "number") throw new Error();
 * ```
 */
export function currentUid(): number | undefined {
  if (Deno.build.os === "windows") return undefined;
  let path: string | undefined;
  try {
    path = Deno.makeTempFileSync({ prefix: "flowrun-uid-" });
    return Deno.statSync(path).uid ?? undefined;
  } catch {
    return undefined;
  } finally {
    if (path) Deno.removeSync(path);
  }
}

/**
 * Why `info` is not the user's own (`uid`): another owner, or writable by
 * its group or others; `undefined` when it is (or when `uid` is unknown:
 * Windows).
 *
 * @example
 * ```ts
 * import { notOwn } from "./ownership.ts";
 * const info = { uid: 1000, mode: 0o100644 } as Deno.FileInfo;
 * if (notOwn(info, 1000) !== undefined) throw new Error();
 * if (notOwn({ ...info, mode: 0o100664 }, 1000) !== "it is writable by its group or others (mode 664)") throw new Error();
 * if (notOwn(info, 0) !== "it is owned by user 1000, not by you (user 0)") throw new Error();
 * ```
 */
export function notOwn(info: Deno.FileInfo, uid: number | undefined): string | undefined {
  if (uid === undefined || info.uid === null || info.mode === null) return undefined;
  if (info.uid !== uid) return `it is owned by user ${info.uid}, not by you (user ${uid})`;
  const mode = info.mode & 0o777;
  if (mode & 0o022) return `it is writable by its group or others (mode ${mode.toString(8)})`;
  return undefined;
}
