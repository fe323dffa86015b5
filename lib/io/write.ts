/**
 * Writing artifacts whole: a regular file is replaced atomically, anything
 * else (a symlink's target, a device, a FIFO, a standard stream) is written
 * through and never replaced. Deno API family: `Deno.open`/`Deno.rename`
 * (through `TempFile`, with `Deno.writeTextFile` for a new file).
 *
 * @module
 */
import { ArtifactWriteError, isDirectoryError } from "./artifact_error.ts";
import { boundBy, UNBOUNDED, type WriteOptions } from "./interrupt.ts";
import { openThrough, resolveTarget, writeAllTo } from "./_target.ts";
import { TempFile } from "./_temp_file.ts";

/** Writes `bytes` to a temporary file beside `path`, flushed to disk, then renames it over. */
async function replaceFile(path: string, bytes: Uint8Array, mode?: number): Promise<void> {
  const temp = await TempFile.create(path, mode);
  try {
    await writeAllTo(temp.file, bytes);
  } catch (error) {
    await temp.discard();
    throw error;
  }
  await temp.commit();
}

/**
 * Writes an artifact and returns the exact bytes written, so a checksum is
 * of what this run wrote, never of a file read back that another run may
 * have replaced since.
 *
 * A regular file (or a missing path) is written atomically: to a temporary
 * file beside it, flushed, then renamed over it, keeping the old file's
 * permissions, so a reader never sees half a report. Missing parent
 * directories are created. Anything else is written *through*, never
 * replaced or deleted: a symlink's target is written (atomically beside the
 * target when that is a regular file; the link stays), a device or FIFO
 * (`/dev/null`, a named pipe) gets the bytes, and `/dev/stdout` and
 * `/dev/stderr` go to the process's own streams.
 *
 * Throws {@linkcode ArtifactWriteError} and nothing else; a failed write
 * leaves an existing file as it was and no temporary file behind.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./write.ts";
 * const dir = await Deno.makeTempDir();
 * const bytes = await writeFileAtomic(`${dir}/out/report.json`, "{}\n");
 * if ((await Deno.readTextFile(`${dir}/out/report.json`)) !== "{}\n") throw new Error();
 * if (bytes.length !== 3) throw new Error();
 * await Deno.symlink(`${dir}/out/report.json`, `${dir}/latest.json`);
 * await writeFileAtomic(`${dir}/latest.json`, "[]\n");
 * if (!(await Deno.lstat(`${dir}/latest.json`)).isSymlink) throw new Error("the link was replaced");
 * if ((await Deno.readTextFile(`${dir}/out/report.json`)) !== "[]\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const bound = boundBy(path, options.interrupt);
  try {
    const target = await resolveTarget(path);
    if (target.kind === "stream") {
      if (target.sink) await writeAllTo(target.sink, bytes, bound);
    } else if (target.kind === "special") {
      const file = await openThrough(target.path, bound);
      try {
        await writeAllTo(file, bytes, bound);
      } finally {
        file.close();
      }
    } else if (target.isDirectory) throw isDirectoryError();
    else await replaceFile(target.path, bytes, target.mode);
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
  }
  return bytes;
}

/**
 * Writes `text` (or bytes: a body a converter made, gzipped) to `path` only
 * when nothing is there yet, creating its folder: a file the user already
 * put in place (the real upload a converted flow sends) is never replaced. Resolves to whether it wrote; throws
 * {@linkcode ArtifactWriteError} when it cannot.
 *
 * @example
 * ```ts
 * import { writeNewFile } from "./write.ts";
 * const dir = await Deno.makeTempDir();
 * if (!(await writeNewFile(`${dir}/uploads/a.txt`, "one"))) throw new Error();
 * if (await writeNewFile(`${dir}/uploads/a.txt`, "two")) throw new Error();
 * if ((await Deno.readTextFile(`${dir}/uploads/a.txt`)) !== "one") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeNewFile(path: string, text: string | Uint8Array): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  try {
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    // Bytes (a request body that is not UTF-8 text) are written as they are.
    if (typeof text === "string") await Deno.writeTextFile(path, text, { createNew: true });
    else await Deno.writeFile(path, text, { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw ArtifactWriteError.from(path, error);
  }
}

/**
 * Appends text to `path` (a CI job summary): a regular file is appended to
 * (created when missing); a symlink is followed; a FIFO or device is written
 * through and a standard stream gets the text, each within
 * `options.interrupt` (see {@linkcode WriteOptions}). Throws
 * {@linkcode ArtifactWriteError} and nothing else.
 *
 * @example
 * ```ts
 * import { appendText } from "./write.ts";
 * const dir = await Deno.makeTempDir();
 * await appendText(`${dir}/summary.md`, "a\n");
 * await appendText(`${dir}/summary.md`, "b\n");
 * if ((await Deno.readTextFile(`${dir}/summary.md`)) !== "a\nb\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function appendText(
  path: string,
  text: string,
  options: WriteOptions = {},
): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  const bound = boundBy(path, options.interrupt);
  try {
    const target = await resolveTarget(path);
    if (target.kind === "stream") {
      if (target.sink) await writeAllTo(target.sink, bytes, bound);
      return;
    }
    if (target.kind === "file" && target.isDirectory) throw isDirectoryError();
    const special = target.kind === "special";
    const file = special
      ? await openThrough(target.path, bound)
      : await Deno.open(target.path, { append: true, create: true });
    try {
      await writeAllTo(file, bytes, special ? bound : UNBOUNDED);
    } finally {
      file.close();
    }
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
  }
}
