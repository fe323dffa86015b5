/**
 * The input file of a converter (a HAR recording, curl commands, a Postman
 * collection): read within its size cap, and a missing, unreadable or
 * oversized file is one usage error that names it, in the converter's words.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";

/** How one converter speaks of its input. */
export interface ConvertInput {
  /** The code of a file that cannot be read (`bad-har`, `bad-curl`, `bad-postman`). */
  code: string;
  /** The input in a sentence: `the HAR file`, `the curl commands in`. */
  what: string;
  /** The most bytes the file may hold. */
  limit: number;
  /** The fix for a file over `limit`. */
  tooLarge: string;
  /** The fix for any other unreadable file. */
  otherwise: string;
}

/**
 * A converter's input file's bytes.
 *
 * @example
 * ```ts ignore
 * import * as io from "../lib/io/mod.ts";
 * import { readConvertInput } from "./convert_input.ts";
 * const bytes = await readConvertInput(io, "a.har", {
 *   code: "bad-har", what: "the HAR file", limit: 1024, tooLarge: "Record less.", otherwise: "Give a .har file.",
 * });
 * ```
 */
export async function readConvertInput(
  io: typeof import("../lib/io/mod.ts"),
  path: string,
  input: ConvertInput,
): Promise<Uint8Array> {
  try {
    return await io.readBytes(path, { limit: input.limit });
  } catch (error) {
    if ((error as Error).cause instanceof Deno.errors.NotFound) {
      throw new UsageError(
        "no-such-path",
        `No file "${path}".`,
        "Check the path; it is relative to the working directory.",
      );
    }
    const code = error instanceof io.InputFileError ? error.code : "file-read";
    throw new UsageError(
      code === "file-read" ? input.code : code,
      `Cannot read ${input.what} "${path}": ${(error as Error).message}.`,
      code === "input-too-large" ? input.tooLarge : input.otherwise,
    );
  }
}
