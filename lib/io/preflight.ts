/**
 * Checks of report paths made before anything is sent: that each can be
 * written, and that none is one of the flow files. Deno API family:
 * `Deno.stat`/`Deno.realPath` (with a `Deno.writeFile` probe).
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { ArtifactWriteError } from "./artifact_error.ts";
import { parentOf } from "./paths.ts";
import { resolveTarget } from "./_target.ts";

/** Why nothing could be written at `path`, or undefined when a probe was written there. */
async function unwritableReason(path: string): Promise<string | undefined> {
  try {
    const target = await resolveTarget(path);
    if (target.kind !== "file") return undefined;
    if (target.isDirectory) return "it is a directory";
    await Deno.mkdir(parentOf(target.path), { recursive: true });
    const probe = `${target.path}.${crypto.randomUUID().slice(0, 8)}.probe`;
    await Deno.writeFile(probe, new Uint8Array(0), { createNew: true });
    await Deno.remove(probe);
    return undefined;
  } catch (error) {
    return ArtifactWriteError.from(path, error).reason;
  }
}

/**
 * Checks, before anything is sent, that a report can be written at `path`:
 * creates missing parent directories and writes and removes a probe file
 * beside the target (beside a symlink's target). A device, FIFO or standard
 * stream is not probed: it is written through at the end, and opening a
 * FIFO now would wait for a reader. Throws {@linkcode UsageError}
 * (`unwritable`) with the plain reason otherwise.
 *
 * @example
 * ```ts
 * import { ensureWritable } from "./preflight.ts";
 * const dir = await Deno.makeTempDir();
 * await ensureWritable(`${dir}/new/dir/report.json`);
 * await ensureWritable("/dev/null");
 * try {
 *   await ensureWritable(dir);
 *   throw new Error("a directory passed");
 * } catch (error) {
 *   if (!(error as Error).message.endsWith(": it is a directory.")) throw error;
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function ensureWritable(path: string): Promise<void> {
  const reason = await unwritableReason(path);
  if (reason === undefined) return;
  throw new UsageError(
    "unwritable",
    `Cannot write "${path}": ${reason}.`,
    "Choose a path in a directory you can write to; nothing was sent.",
  );
}

/** Which file `path` is, whatever its spelling; undefined for a missing path or a non-file. */
async function identity(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined; // A device or pipe is written through, not replaced.
    if (info.ino !== null && info.dev !== null) return `inode:${info.dev}:${info.ino}`;
    return `path:${await Deno.realPath(path)}`;
  } catch {
    return undefined;
  }
}

/**
 * Refuses, before anything is sent, a report path that is one of the input
 * files (a flow file): writing it would destroy the test it reports on.
 * Paths are compared as files, not as strings: through symlinks, `..`,
 * other spellings and hard links (same device and inode; the real path where
 * the system has no inodes). Paths that do not exist yet are never the same
 * as an input. Throws {@linkcode UsageError} (`unwritable`) naming both.
 *
 * @example
 * ```ts
 * import { refuseInputsAsOutputs } from "./preflight.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/login.yaml`, "name: login\n");
 * await Deno.link(`${dir}/login.yaml`, `${dir}/report.json`);
 * try {
 *   await refuseInputsAsOutputs([`${dir}/report.json`], [`${dir}/login.yaml`]);
 *   throw new Error("a hard link to a flow file passed");
 * } catch (error) {
 *   if (!(error as Error).message.includes("it is the flow file")) throw error;
 * }
 * await refuseInputsAsOutputs([`${dir}/new.json`, "/dev/null"], [`${dir}/login.yaml`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function refuseInputsAsOutputs(
  outputs: readonly string[],
  inputs: readonly string[],
): Promise<void> {
  const byIdentity = new Map<string, string>();
  for (const output of outputs) {
    const id = await identity(output);
    if (id !== undefined && !byIdentity.has(id)) byIdentity.set(id, output);
  }
  if (byIdentity.size === 0) return;
  for (const input of inputs) {
    const id = await identity(input);
    const output = id === undefined ? undefined : byIdentity.get(id);
    if (output !== undefined) {
      throw new UsageError(
        "unwritable",
        `Cannot write a report to "${output}": it is the flow file "${input}".`,
        "Choose a report path outside the flow files; nothing was sent.",
      );
    }
  }
}
