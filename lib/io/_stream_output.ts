/**
 * Where a streamed artifact's bytes go until it is closed: a temporary file
 * beside a regular file, or a device, FIFO or standard stream written
 * through. Deno API family: `Deno.open` (through `TempFile` and
 * `openThrough`).
 *
 * @module
 */
import { isDirectoryError } from "./artifact_error.ts";
import { type Bound, UNBOUNDED } from "./interrupt.ts";
import { openThrough, resolveTarget, type Sink } from "./_target.ts";
import { TempFile } from "./_temp_file.ts";

/** A stream's destination, open. */
export interface StreamOutput {
  /** Where the bytes go; `null` discards (`/dev/null`). */
  sink: Sink | null;
  /** A device or FIFO opened to write through, closed at the end. */
  through?: Deno.FsFile;
  /** A regular file's temporary file, renamed into place at the end. */
  temp?: TempFile;
  /** The bound of each write: a temporary file's writes end; what goes through may not. */
  bound: Bound;
}

/**
 * Opens what writing `path` reaches (see `resolveTarget`), the open of a
 * FIFO within `bound`.
 *
 * @example
 * ```ts
 * import { openStreamOutput } from "./_stream_output.ts";
 * import { UNBOUNDED } from "./interrupt.ts";
 * const out = await openStreamOutput("/dev/null", UNBOUNDED);
 * if (out.sink !== null || out.temp || out.through) throw new Error();
 * ```
 */
export async function openStreamOutput(path: string, bound: Bound): Promise<StreamOutput> {
  const target = await resolveTarget(path);
  if (target.kind === "stream") return { sink: target.sink, bound };
  if (target.kind === "special") {
    const through = await openThrough(target.path, bound);
    return { sink: through, through, bound };
  }
  if (target.isDirectory) throw isDirectoryError();
  const temp = await TempFile.create(target.path, target.mode);
  return { sink: temp.file, temp, bound: UNBOUNDED };
}
