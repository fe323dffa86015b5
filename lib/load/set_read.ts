/**
 * The read stage of loading a flow set: one flow file's bytes and text, or
 * the one problem that keeps it from being loaded.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { InputFileError } from "../io/input_error.ts";
import { readBytesSync } from "../io/read.ts";
import { MAX_FILE_BYTES } from "../model/limits.ts";
import { fileTooLarge } from "./load_flow.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * A flow file's bytes and text, or its one problem at 1:1: not a regular file
 * (a FIFO would block the load for ever, a device never ends), larger than
 * {@linkcode MAX_FILE_BYTES} (found before a byte is parsed: a 50 MB flow
 * exhausted memory after 100 s), unreadable or not UTF-8. `hint` says what
 * to check when it cannot be read.
 *
 * Read synchronously: nothing else runs while flows load, and an
 * asynchronous read of a small file cost ten times a synchronous one (a
 * thread-pool round trip each).
 *
 * @example
 * ```ts
 * import { readFlowFile } from "./set_read.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeFile(`${dir}/a.yaml`, new Uint8Array([0x6e, 0xff]));
 * const read = readFlowFile(`${dir}/a.yaml`, "Check the file.");
 * const missing = readFlowFile(`${dir}/b.yaml`, "Check the file.");
 * await Deno.remove(dir, { recursive: true });
 * if (!("problem" in read) || read.problem.line !== 1) throw new Error();
 * if (!("problem" in missing) || missing.problem.hint !== "Check the file.") throw new Error();
 * ```
 */
export function readFlowFile(
  file: string,
  hint: string,
): { bytes: Uint8Array; text: string } | { problem: Problem } {
  try {
    const bytes = readBytesSync(file, { limit: MAX_FILE_BYTES });
    return { bytes, text: decoder.decode(bytes) };
  } catch (error) {
    if (error instanceof InputFileError && error.code === "input-too-large") {
      return { problem: fileTooLarge(file, error.size ?? MAX_FILE_BYTES + 1) };
    }
    return {
      problem: {
        code: error instanceof InputFileError ? error.code : "file-read",
        message: `Could not read the flow file: ${(error as Error).message}.`,
        file,
        line: 1,
        column: 1,
        hint,
      },
    };
  }
}
