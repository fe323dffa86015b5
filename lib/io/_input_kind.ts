/**
 * Whether what `stat` described may be read as an input: a regular file
 * within its limit, and no kernel interface file. Deno API family:
 * `Deno.statSync` (its `Deno.FileInfo`).
 *
 * @module
 */
import { InputFileError, KERNEL, tooLarge } from "./input_error.ts";

let kernel: Set<number> | undefined;

/**
 * The devices of Linux's kernel file systems (procfs, sysfs and those
 * mounted under it, such as tracefs): their "regular" files can read for
 * ever (`/proc/kmsg`, `trace_pipe`) or say they are empty, so none is an
 * input. Found once per process, from the mount points' own `stat`.
 */
function kernelFiles(): Set<number> {
  if (kernel) return kernel;
  kernel = new Set();
  if (Deno.build.os !== "linux") return kernel;
  for (const dir of ["/proc", "/sys", "/sys/kernel/tracing", "/sys/kernel/debug"]) {
    try {
      kernel.add(Deno.statSync(dir).dev);
    } catch {
      // Not mounted here.
    }
  }
  return kernel;
}

/** What a file that is not regular is, or undefined for a regular file. */
function notRegular(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return kernelFiles().has(info.dev) ? KERNEL : undefined;
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * Checks what `stat` says before anything is opened: opening a FIFO would
 * wait for a writer for ever, and a device never ends. (A path swapped for a
 * FIFO between this check and the open still blocks: only someone who can
 * write the directory at that moment can do that.)
 *
 * @example
 * ```ts
 * import { checkInput } from "./_input_kind.ts";
 * const dir = await Deno.makeTempDir();
 * try {
 *   checkInput(dir, await Deno.stat(dir), 10);
 *   throw new Error("a directory passed");
 * } catch (error) {
 *   if ((error as Error).message !== "it is a directory, not a regular file") throw error;
 * }
 * await Deno.remove(dir);
 * ```
 */
export function checkInput(path: string, info: Deno.FileInfo, limit: number): void {
  const kind = notRegular(info);
  if (kind !== undefined) {
    throw new InputFileError(
      path,
      "not-a-regular-file",
      kind === "not a regular file"
        ? "it is not a regular file"
        : `it is ${kind}, not a regular file`,
    );
  }
  if (info.size > limit) throw tooLarge(path, limit, info.size);
}
