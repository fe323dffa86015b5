/**
 * Where writing a path really goes (a standard stream, a device or FIFO
 * written through, or a regular file replaced), and the writes that go
 * through. Deno API family: `Deno.lstat`/`Deno.readLink` (with `Deno.open`
 * for what is written through, and `Deno.stdout`/`Deno.stderr`).
 *
 * @module
 */
import { type Bound, UNBOUNDED } from "./interrupt.ts";
import { parentOf } from "./paths.ts";

/** Something bytes can be written to. */
export interface Sink {
  /** Writes some of `p`, resolving to how many bytes were taken. */
  write(p: Uint8Array): Promise<number>;
}

/**
 * The standard streams by name: Deno asks for --allow-all to open anything in
 * /dev, and /dev/stdout of a piped process resolves to a pipe without a
 * path. `null` discards.
 */
const STANDARD: Record<string, () => Sink | null> = {
  "/dev/stdout": () => Deno.stdout,
  "/dev/stderr": () => Deno.stderr,
  "/dev/fd/1": () => Deno.stdout,
  "/dev/fd/2": () => Deno.stderr,
  "/proc/self/fd/1": () => Deno.stdout,
  "/proc/self/fd/2": () => Deno.stderr,
  "/dev/null": () => null,
};

/**
 * Where writing a path really goes:
 * - `stream`: a standard stream (or `/dev/null`, `sink: null`), also behind a symlink;
 * - `special`: a device, FIFO or socket, written through and never replaced;
 * - `file`: a regular file or a missing path (a symlink's target, so the link
 *   stays a link), replaced atomically; `mode` is the existing file's, kept.
 */
export type Target =
  | { kind: "stream"; path: string; sink: Sink | null }
  | { kind: "special"; path: string }
  | { kind: "file"; path: string; mode?: number; isDirectory?: boolean };

/** How many symlinks in a row are followed, as Linux does. */
const MAX_LINKS = 40;

/**
 * Follows `path`'s symlinks to what a write would reach.
 *
 * @example
 * ```ts
 * import { resolveTarget } from "./_target.ts";
 * if ((await resolveTarget("/dev/null")).kind !== "stream") throw new Error();
 * const dir = await Deno.makeTempDir();
 * await Deno.symlink(`${dir}/real.json`, `${dir}/link.json`);
 * const target = await resolveTarget(`${dir}/link.json`);
 * await Deno.remove(dir, { recursive: true });
 * if (target.kind !== "file" || target.path !== `${dir}/real.json`) throw new Error();
 * ```
 */
export async function resolveTarget(path: string): Promise<Target> {
  let current = path;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    if (Object.hasOwn(STANDARD, current)) {
      return { kind: "stream", path: current, sink: STANDARD[current]() };
    }
    const info = await Deno.lstat(current).catch(() => undefined);
    if (!info) return { kind: "file", path: current };
    if (info.isSymlink) {
      const link = await Deno.readLink(current);
      current = link.startsWith("/") || /^[A-Za-z]:[\\/]/.test(link)
        ? link
        : `${parentOf(current)}/${link}`;
      continue;
    }
    if (info.isFile) return { kind: "file", path: current, mode: info.mode ?? undefined };
    if (info.isDirectory) return { kind: "file", path: current, isDirectory: true };
    return { kind: "special", path: current };
  }
  throw Object.assign(new Error("Too many levels of symbolic links"), { code: "ELOOP" });
}

/**
 * Writes every byte to `file`, each write within `bound`.
 *
 * @example
 * ```ts
 * import { writeAllTo } from "./_target.ts";
 * const taken: number[] = [];
 * const slow = { write: (p: Uint8Array) => Promise.resolve(taken.push(p[0]) && 1) };
 * await writeAllTo(slow, new Uint8Array([1, 2, 3]));
 * if (taken.join() !== "1,2,3") throw new Error();
 * ```
 */
export async function writeAllTo(file: Sink, bytes: Uint8Array, bound = UNBOUNDED): Promise<void> {
  while (bytes.length > 0) bytes = bytes.subarray(await bound(file.write(bytes)));
}

/**
 * Opens a device or FIFO for writing, within `bound`: a FIFO's open waits
 * for a reader. An open given up is closed if it ever completes.
 *
 * @example
 * ```ts
 * import { openThrough } from "./_target.ts";
 * import { UNBOUNDED } from "./interrupt.ts";
 * const file = await openThrough("/dev/null", UNBOUNDED);
 * file.close();
 * ```
 */
export async function openThrough(path: string, bound: Bound): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { write: true });
  try {
    return await bound(opening);
  } catch (error) {
    opening.then((file) => file.close(), () => {});
    throw error;
  }
}
